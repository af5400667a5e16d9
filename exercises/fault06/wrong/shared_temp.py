def write_output(out, path, rows):
    temp = path + ".tmp"  # private to the shard... but every attempt of the shard shares it
    out.put(temp, rows)
    try:
        out.rename(temp, path)
    except FileExistsError:
        out.delete(temp)
