# Correct, written apart from the reference: a context manager owns the private file and removes
# it on the way out unless it was committed; the rename is the one atomic claim.
class PrivateCopy:
    def __init__(self, out, rows):
        self.out = out
        self.name = f"tmp/{out.attempt_name()}"
        self.rows = rows
        self.kept = False

    def __enter__(self):
        self.out.put(self.name, self.rows)
        return self

    def publish(self, path):
        try:
            self.out.rename(self.name, path)
            self.kept = True
        except FileExistsError:
            self.kept = False

    def __exit__(self, *exc):
        if not self.kept:
            self.out.delete(self.name)
        return False


def write_output(out, path, rows):
    with PrivateCopy(out, rows) as copy:
        copy.publish(path)
