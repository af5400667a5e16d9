import miniray as ray


def make_pipeline():
    """The pipeline's two stages, as Ray tasks. Its workers crash now and then: make it finish."""

    @ray.remote(max_retries=0)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=0)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    refs = [count.remote(clean.remote(line)) for line in lines]
    return ray.get(refs)
