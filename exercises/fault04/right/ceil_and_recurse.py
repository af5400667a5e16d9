# Correct, written apart from the reference: Young's interval rounded up (within the 2% the
# statement allows), and training as a recursion over the steps left.
import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return max(1, math.ceil(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def _run(ckpt, step, steps, interval, weights, do_step):
    if step == steps:
        return weights
    weights = do_step(step, weights)
    if (step + 1) % interval == 0 and step + 1 < steps:
        ckpt.save(step + 1, weights)
    return _run(ckpt, step + 1, steps, interval, weights, do_step)


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    start, weights = (0, 1) if saved is None else saved
    return _run(ckpt, start, steps, interval, weights, do_step)
