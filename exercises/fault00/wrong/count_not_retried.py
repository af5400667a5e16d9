import miniray as ray


def make_pipeline():
    @ray.remote(max_retries=2)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote  # left as it was: "counting cannot fail"
    def count(text):
        return len(text.split())

    return clean, count.options(max_retries=0)


def run_pipeline(stages, lines):
    clean, count = stages
    return ray.get([count.remote(clean.remote(line)) for line in lines])
