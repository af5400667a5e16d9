# Correct, written apart from the reference: no max_retries at all. Ray retries a task whose
# worker died 3 times by default, more than the two faults a run brings; the stages are named
# functions at module level, and the refs are collected with a loop.
import miniray as ray


@ray.remote
def clean_line(line):
    return " ".join(line.lower().split())


@ray.remote
def count_words(text):
    return len(text.split())


def make_pipeline():
    return {"clean": clean_line, "count": count_words}


def run_pipeline(stages, lines):
    refs = []
    for line in lines:
        cleaned = stages["clean"].remote(line)
        refs.append(stages["count"].remote(cleaned))
    return ray.get(refs)
