# Correct, written apart from the reference: collections.Counter of releases; a tie goes to the
# oldest group of the cycle (any fixed rule will do), found by its place in ctx.groups.
from collections import Counter


def make_rescheduler():
    paid = Counter()

    def rescheduler(ctx):
        mine = [cycle for cycle in ctx.diagnosis().cycles if ctx.group.label in cycle]
        if not mine:
            return
        order = [g.label for g in ctx.groups]
        members = sorted(set(mine[0]), key=order.index)
        victim = min(members, key=lambda name: (paid[name], order.index(name)))
        paid[victim] += 1
        ctx.release_surviving(victim)

    return rescheduler
