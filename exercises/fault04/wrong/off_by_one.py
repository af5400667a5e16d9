import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    step, weights = saved if saved is not None else (0, 1)
    while step < steps:
        weights = do_step(step, weights)
        if (step + 1) % interval == 0 and step + 1 < steps:
            ckpt.save(step, weights)  # the step just run, not the number of steps done
        step += 1
    return weights
