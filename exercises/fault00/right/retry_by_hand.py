# Correct, written apart from the reference: Ray's retries stay off and the driver retries by
# hand, line by line, a bounded number of times, catching only the loss of a worker or a node.
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
        for attempt in range(3):  # two faults in a run at most: the third attempt gets through
            try:
                counts.append(ray.get(count.remote(clean.remote(line))))
                break
            except (WorkerCrashedError, NodeDiedError):
                if attempt == 2:
                    raise
    return counts
