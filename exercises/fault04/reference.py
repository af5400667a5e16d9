import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    # Young's rule: a checkpoint every sqrt(2 * C * M) seconds balances the time spent writing
    # checkpoints (C per interval) against the work a preemption throws away (half an interval,
    # on average). The job counts in steps, so convert, and checkpoint at least every step.
    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def train(ckpt, steps, interval, do_step):
    # A preempted job starts again from the top: pick up where the last checkpoint left off.
    saved = ckpt.load()
    step, weights = saved if saved is not None else (0, 1)
    while step < steps:
        weights = do_step(step, weights)
        step += 1
        # The step count is saved with the weights it produced, so a resumed job neither repeats
        # nor skips a step. No checkpoint after the last step: the job returns its weights.
        if step % interval == 0 and step < steps:
            ckpt.save(step, weights)
    return weights
