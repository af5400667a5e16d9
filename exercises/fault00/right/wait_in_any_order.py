# Correct, written apart from the reference: results are collected with ray.wait as they finish
# (a retried task finishes late), and each is put back in its line's place.
import miniray as ray


def make_pipeline():
    def stage(fn):
        return ray.remote(max_retries=4)(fn)

    def clean(line):
        return " ".join(line.lower().split())

    def count(text):
        return len(text.split())

    return [stage(clean), stage(count)]


def run_pipeline(stages, lines):
    clean, count = stages
    where = {count.remote(clean.remote(line)): i for i, line in enumerate(lines)}
    counts = [None] * len(lines)
    pending = list(where)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        counts[where[done[0]]] = ray.get(done[0])
    return counts
