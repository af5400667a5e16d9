# Correct, written apart from the reference: each line is one outer task that runs the cleaning
# stage as a task of its own and waits for it inside. Both are retried. Ray lends a blocked
# task's CPU to the task it waits for, so the three outer tasks on the two one-CPU workers do not
# deadlock: the inner tasks run while their outer tasks wait.
import miniray as ray


def make_pipeline():
    @ray.remote(max_retries=2)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=2)
    def count_line(line):
        text = ray.get(clean.remote(line))
        return len(text.split(" ")) if text else 0

    return clean, count_line


def run_pipeline(stages, lines):
    _clean, count_line = stages
    return ray.get([count_line.remote(line) for line in lines])
