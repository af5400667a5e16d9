import miniray as ray

SIZE = 120_000


def build(ledger):
    @ray.remote
    def load(part):
        return bytes([part]) * SIZE

    @ray.remote
    class Tagger:  # publish and summary are fixed; the tag still counts batches in the actor
        def __init__(self):
            self.batches = 0

        def tag(self, block):
            self.batches += 1
            return bytes([self.batches]) + block

    @ray.remote
    def publish(block):
        ledger.put("published", f"published {len(block)} bytes")
        return block[::-1]

    @ray.remote
    def summarize(block):
        return block[: len(block) // 2]

    raw1, raw2 = load.remote(1), load.remote(2)
    tagger = Tagger.remote()
    tagger.tag.remote(raw1)
    return {
        "features": raw1,
        "tagged": tagger.tag.remote(raw2),
        "published": publish.remote(raw1),
        "summary": summarize.remote(raw2),
    }
