def make_rescheduler():
    # Takes capacity from a healthy group instead of disrupting a recovering one.
    def rescheduler(ctx):
        if ctx.diagnosis().cycles:
            for g in ctx.groups:
                if g.state == "CREATED":
                    ctx.release_surviving(g)
                    return

    return rescheduler
