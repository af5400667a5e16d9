import miniray as ray
from miniray.exceptions import NodeDiedError, WorkerCrashedError


def make_pipeline():
    @ray.remote(max_retries=0)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=0)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    counts = []
    for line in lines:
        try:
            counts.append(ray.get(count.remote(clean.remote(line))))
        except (WorkerCrashedError, NodeDiedError):  # try once more by hand
            counts.append(ray.get(count.remote(clean.remote(line))))
    return counts
