# Correct, written apart from the reference: a class keeps the tally and picks the victim with a
# sort over (releases so far, name), so the alphabetically first group wins a tie.
class FairVictims:
    def __init__(self):
        self.times = {}

    def pick(self, members):
        return sorted(members, key=lambda name: (self.times.get(name, 0), name))[0]

    def __call__(self, ctx):
        for cycle in ctx.diagnosis().cycles:
            if ctx.group.label not in cycle:
                continue
            victim = self.pick(set(cycle))
            self.times[victim] = self.times.get(victim, 0) + 1
            ctx.release_surviving(ctx.by_label(victim))
            return


def make_rescheduler():
    return FairVictims()
