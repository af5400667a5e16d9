def write_output(out, path, rows):
    temp = f"tmp/{out.attempt_name()}"
    out.put(temp, rows)
    out.rename(temp, path)  # the first attempt's rename wins; what does the second one do?
    out.delete(temp)
