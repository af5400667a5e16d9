def choose_interval(mtbf_s, checkpoint_s, step_s):
    """How many training steps between two checkpoints, for a cluster whose nodes are preempted
    every `mtbf_s` seconds on average, where a checkpoint takes `checkpoint_s` seconds and one
    step `step_s` seconds."""
    return 1


def train(ckpt, steps, interval, do_step):
    """Run `steps` training steps from weights 1 and return the final weights. The job is
    preempted now and then and started again from the top: resume from ckpt.load(), and
    ckpt.save(step, weights) every `interval` steps."""
    weights = 1
    for step in range(steps):
        weights = do_step(step, weights)
    return weights
