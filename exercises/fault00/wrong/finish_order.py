import miniray as ray


def make_pipeline():
    @ray.remote(max_retries=2)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=2)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    pending = [count.remote(clean.remote(line)) for line in lines]
    counts = []
    while pending:  # in the order they finish: a retried line finishes last
        done, pending = ray.wait(pending, num_returns=1)
        counts.append(ray.get(done[0]))
    return counts
