def write_output(out, path, rows):
    """Publish `rows` at `path`, exactly once, even when several attempts of the task run."""
    out.put(path, rows)
