import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    step, weights = saved if saved is not None else (0, 1)
    if saved is not None:
        ckpt.save(step, weights)  # "mark the resume", an extra checkpoint after every preemption
    while step < steps:
        weights = do_step(step, weights)
        step += 1
        if step % interval == 0 and step < steps:
            ckpt.save(step, weights)
    return weights
