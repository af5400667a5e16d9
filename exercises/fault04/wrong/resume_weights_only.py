import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    weights = saved[1] if saved is not None else 1  # the weights come back, the step count does not
    for step in range(steps):
        weights = do_step(step, weights)
        if (step + 1) % interval == 0 and step + 1 < steps:
            ckpt.save(step + 1, weights)
    return weights
