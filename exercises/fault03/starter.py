import miniray as ray

SIZE = 120_000


def build(ledger):
    """Four outputs of a small pipeline. Lose any one worker node after they are made, and each
    must still be there, with the same bytes. Today three of them are not: find the cliff each
    one falls off, and rebuild the pipeline so lineage can bring every output back."""

    @ray.remote
    def load(part):
        return bytes([part]) * SIZE

    @ray.remote
    class Tagger:
        def __init__(self):
            self.batches = 0

        def tag(self, block):
            self.batches += 1
            return bytes([self.batches]) + block

    @ray.remote(max_retries=0)  # it writes to the ledger, so it must never run twice
    def publish(block):
        ledger.append(f"published {len(block)} bytes")
        return block[::-1]

    @ray.remote
    def summarize(block):
        return [ray.put(block[: len(block) // 2])]

    raw1, raw2 = load.remote(1), load.remote(2)
    tagger = Tagger.remote()
    tagger.tag.remote(raw1)
    tagged = tagger.tag.remote(raw2)
    [summary] = ray.get(summarize.remote(raw2))
    return {"features": raw1, "tagged": tagged, "published": publish.remote(raw1), "summary": summary}
