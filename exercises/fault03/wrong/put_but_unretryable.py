import miniray as ray

SIZE = 120_000


def build(ledger):
    @ray.remote
    def load(part):
        return bytes([part]) * SIZE

    @ray.remote
    def tag(block, batch):
        return bytes([batch]) + block

    @ray.remote(max_retries=0)  # the write is a keyed put now, but the task still may not re-run
    def publish(block):
        ledger.put("published", f"published {len(block)} bytes")
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
