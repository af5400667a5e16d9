def make_rescheduler():
    # The least disruption each time: the member with the fewest surviving bundles, the newest on a tie.
    # With no memory of earlier releases, the same group loses every tie.
    def rescheduler(ctx):
        cycles = [c for c in ctx.diagnosis().cycles if ctx.group.label in c]
        if not cycles:
            return
        members = [ctx.by_label(name) for name in dict.fromkeys(cycles[0][:-1])]
        victim = min(reversed(members), key=lambda g: len(g.placed()))
        ctx.release_surviving(victim)

    return rescheduler
