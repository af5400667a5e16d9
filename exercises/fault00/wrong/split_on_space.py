import miniray as ray


def make_pipeline():
    @ray.remote(max_retries=2)
    def clean(line):
        return line.lower().strip()

    @ray.remote(max_retries=2)
    def count(text):
        return len(text.split(" "))  # one space at a time: "jumps  over" has three "words"

    return clean, count


def run_pipeline(stages, lines):
    clean, count = stages
    return ray.get([count.remote(clean.remote(line)) for line in lines])
