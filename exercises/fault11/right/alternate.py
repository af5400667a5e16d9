# Correct, written apart from the reference: the two groups of a cycle take turns; the one not
# released last time pays now (with two members, "released least often" is "not the last one").
def make_rescheduler():
    state = {"last": None, "counts": {}}

    def rescheduler(ctx):
        cycles = [c for c in ctx.diagnosis().cycles if ctx.group.label in c]
        if not cycles:
            return
        members = list(dict.fromkeys(cycles[0]))
        counts = state["counts"]
        fewest = min(counts.get(m, 0) for m in members)
        candidates = [m for m in members if counts.get(m, 0) == fewest]
        victim = next((m for m in candidates if m != state["last"]), candidates[0])
        counts[victim] = counts.get(victim, 0) + 1
        state["last"] = victim
        ctx.release_surviving(victim)

    return rescheduler
