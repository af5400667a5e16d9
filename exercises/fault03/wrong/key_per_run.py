import time

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
        # a keyed write, so a repeat "overwrites"... under a key that is new every time it runs
        ledger.put(f"published-at-{time.time():.3f}", f"published {len(block)} bytes")
        return block[::-1]

    @ray.remote
    def summarize(block):
        return block[: len(block) // 2]

    raw1, raw2 = load.remote(1), load.remote(2)
    return {
        "features": raw1,
        "tagged": tag.remote(raw2, 2),
        "published": publish.remote(raw1),
        "summary": summarize.remote(raw2),
    }
