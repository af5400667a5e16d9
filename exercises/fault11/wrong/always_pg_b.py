def make_rescheduler():
    # The lesson's step-8 rule: PG_B pays for every cycle.
    def rescheduler(ctx):
        if ctx.diagnosis().cycles:
            ctx.release_surviving("PG_B")

    return rescheduler
