# A task appends to a module-level list and the driver reads it: Ray never shows the driver a
# worker's write (each process has its own copy), so neither may the grader, jailed or not.
import miniray as ray

SEEN = []


def make_pipeline():
    @ray.remote(max_retries=2)
    def clean(line):
        SEEN.append(line)  # a worker's own copy in Ray: the driver never sees it
        return " ".join(line.lower().split())

    @ray.remote(max_retries=2)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    refs = [count.remote(clean.remote(line)) for line in lines]
    out = ray.get(refs)
    return out if not SEEN else [0] * len(out)  # relies on seeing the workers' writes
