import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s)  # can round down to 0 steps


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    step, weights = saved if saved is not None else (0, 1)
    while step < steps:
        weights = do_step(step, weights)
        step += 1
        if step % interval == 0 and step < steps:
            ckpt.save(step, weights)
    return weights
