def write_output(out, path, rows):
    if out.read(path) is None:
        out.put(path, rows)
