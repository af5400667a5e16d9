# Correct, written apart from the reference: no formula. It tries every interval up to the mean
# time between preemptions and keeps the one whose expected overhead is lowest; training is a
# for loop over the steps left.
def overhead(k, mtbf_s, checkpoint_s, step_s):
    tau = k * step_s
    return checkpoint_s / tau + tau / (2 * mtbf_s)


def choose_interval(mtbf_s, checkpoint_s, step_s):
    best = 1
    for k in range(1, max(2, int(mtbf_s / step_s) + 1)):
        if overhead(k, mtbf_s, checkpoint_s, step_s) < overhead(best, mtbf_s, checkpoint_s, step_s):
            best = k
    return best


def train(ckpt, steps, interval, do_step):
    done, weights = ckpt.load() or (0, 1)
    for step in range(done, steps):
        weights = do_step(step, weights)
        if (step + 1) % interval == 0 and step + 1 != steps:
            ckpt.save(step + 1, weights)
    return weights
