def write_output(out, path, rows):
    out.put(path, rows)
