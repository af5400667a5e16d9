# Correct, written apart from the reference: the summary is read by the driver and put again by
# it, so the driver owns it (a put by the driver lives on the driver's node, which is not lost);
# one task makes the tag, another publishes with an idempotent keyed write.
import miniray as ray

SIZE = 120_000


def build(ledger):
    @ray.remote
    def load(part):
        return bytes([part]) * SIZE

    @ray.remote
    def tag(block, batch):
        return bytes([batch]) + block

    @ray.remote
    def publish(block):
        ledger.put("the-publication", "done")
        return block[::-1]

    @ray.remote
    def summarize(block):
        return block[: len(block) // 2]

    raw1, raw2 = load.remote(1), load.remote(2)
    summary = ray.put(ray.get(summarize.remote(raw2)))
    return {
        "features": raw1,
        "tagged": tag.remote(raw2, 2),
        "published": publish.remote(raw1),
        "summary": summary,
    }
