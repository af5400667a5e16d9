# Correct, written apart from the reference: the temporary file is cleaned up in a finally block
# whenever this attempt did not commit it.
def write_output(out, path, rows):
    temp = "scratch/" + out.attempt_name() + "/" + path.replace("/", "_")
    out.put(temp, rows)
    committed = False
    try:
        out.rename(temp, path)
        committed = True
    except FileExistsError:
        pass  # another attempt committed first: ours is not needed
    finally:
        if not committed:
            out.delete(temp)
