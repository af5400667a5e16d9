# Correct, written apart from the reference: a class holds the stages, the retries are set per
# call with .options(), and one task does both steps (it is still pure, so safe to run again).
import miniray as ray


@ray.remote
def words_in(line):
    return len(line.split())


class Pipeline:
    def __init__(self, retries):
        self.task = words_in.options(max_retries=retries)

    def run(self, lines):
        return ray.get([self.task.remote(line) for line in lines])


def make_pipeline():
    return Pipeline(retries=-1)  # -1: retry a lost worker without a bound


def run_pipeline(stages, lines):
    return stages.run(lines)
