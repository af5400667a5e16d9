import miniray as ray

SIZE = 120_000
BATCHES = {"seen": 0}  # "a plain task now, and the count lives in the module"


def build(ledger):
    @ray.remote
    def load(part):
        return bytes([part]) * SIZE

    @ray.remote
    def tag(block):
        BATCHES["seen"] += 1
        return bytes([BATCHES["seen"]]) + block

    @ray.remote
    def publish(block):
        ledger.put("published", f"published {len(block)} bytes")
        return block[::-1]

    @ray.remote
    def summarize(block):
        return block[: len(block) // 2]

    raw1, raw2 = load.remote(1), load.remote(2)
    ray.get(tag.remote(raw1))  # batch 1 is tagged first, in the same worker
    return {
        "features": raw1,
        "tagged": tag.remote(raw2),
        "published": publish.remote(raw1),
        "summary": summarize.remote(raw2),
    }
