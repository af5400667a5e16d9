import math

_latest = None  # the last checkpoint this process wrote: quicker than asking the store


def choose_interval(mtbf_s, checkpoint_s, step_s):
    return max(1, round(math.sqrt(2 * checkpoint_s * mtbf_s) / step_s))


def train(ckpt, steps, interval, do_step):
    global _latest
    saved = _latest if _latest is not None else ckpt.load()
    step, weights = saved if saved is not None else (0, 1)
    while step < steps:
        weights = do_step(step, weights)
        step += 1
        if step % interval == 0 and step < steps:
            ckpt.save(step, weights)
            _latest = (step, weights)
    return weights
