def make_rescheduler():
    def rescheduler(ctx):
        if any(ctx.group.label in c for c in ctx.diagnosis().cycles):
            ctx.release_surviving(ctx.group)  # the group that just failed gives way

    return rescheduler
