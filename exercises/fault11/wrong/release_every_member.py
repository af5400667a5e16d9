def make_rescheduler():
    # Releases the whole cycle: every group on it starts its recovery again from nothing.
    def rescheduler(ctx):
        for cycle in ctx.diagnosis().cycles:
            for name in dict.fromkeys(cycle[:-1]):
                ctx.release_surviving(name)

    return rescheduler
