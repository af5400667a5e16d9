def make_rescheduler():
    released = {}  # group name -> how many times this rescheduler released it

    def rescheduler(ctx):
        cycles = [c for c in ctx.diagnosis().cycles if ctx.group.label in c]
        if not cycles:
            return  # waiting for capacity, or for a group that is not waiting back: leave it
        members = list(dict.fromkeys(cycles[0][:-1]))  # the cycle lists its first group again
        # The member released least often pays; a tie goes to the newest group (last on the cycle).
        victim = min(reversed(members), key=lambda name: released.get(name, 0))
        released[victim] = released.get(victim, 0) + 1
        ctx.release_surviving(victim)

    return rescheduler
