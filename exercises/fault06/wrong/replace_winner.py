def write_output(out, path, rows):
    temp = f"tmp/{out.attempt_name()}"
    out.put(temp, rows)
    try:
        out.rename(temp, path)
    except FileExistsError:
        out.delete(path)  # "ours is newer": replace what is there
        out.rename(temp, path)
