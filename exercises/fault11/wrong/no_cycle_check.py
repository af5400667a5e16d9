def make_rescheduler():
    # Releases whoever holds what the failed group waits for, without asking whether that holder waits back.
    def rescheduler(ctx):
        for waiter, holder, _node in ctx.diagnosis().edges:
            if waiter == ctx.group.label:
                ctx.release_surviving(holder)
                return

    return rescheduler
