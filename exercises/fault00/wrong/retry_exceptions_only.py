import miniray as ray


def make_pipeline():
    # retry_exceptions retries what the task raises; a dead worker is max_retries' business.
    @ray.remote(max_retries=0, retry_exceptions=True)
    def clean(line):
        return " ".join(line.lower().split())

    @ray.remote(max_retries=0, retry_exceptions=True)
    def count(text):
        return len(text.split())

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    return ray.get([count.remote(clean.remote(line)) for line in lines])
