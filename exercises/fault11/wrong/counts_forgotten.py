def make_rescheduler():
    def rescheduler(ctx):
        released = {}  # counted afresh on every call: it never remembers who paid before
        cycles = [c for c in ctx.diagnosis().cycles if ctx.group.label in c]
        if not cycles:
            return
        members = list(dict.fromkeys(cycles[0][:-1]))
        victim = min(members, key=lambda name: released.get(name, 0))
        released[victim] = released.get(victim, 0) + 1
        ctx.release_surviving(victim)

    return rescheduler
