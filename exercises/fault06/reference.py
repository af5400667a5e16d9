def write_output(out, path, rows):
    # Write privately, then claim the final name with one atomic rename: the first attempt to
    # get there wins, and every later one (a retry, a speculative copy) finds it taken.
    temp = f"tmp/{out.attempt_name()}"
    out.put(temp, rows)
    try:
        out.rename(temp, path)
    except FileExistsError:
        out.delete(temp)
