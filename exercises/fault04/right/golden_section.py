# Correct, written apart from the reference: the optimum of C/tau + tau/(2M) found by comparing
# the two whole numbers of steps around the real optimum; a class keeps the job's progress.
import math


def choose_interval(mtbf_s, checkpoint_s, step_s):
    def cost(k):
        return checkpoint_s / (k * step_s) + k * step_s / (2 * mtbf_s)

    real = math.sqrt(2 * checkpoint_s * mtbf_s) / step_s
    candidates = {max(1, math.floor(real)), max(1, math.ceil(real))}
    return min(sorted(candidates), key=cost)


class Job:
    def __init__(self, ckpt, steps, interval):
        self.ckpt, self.steps, self.interval = ckpt, steps, interval
        self.done, self.weights = ckpt.load() or (0, 1)

    def step(self, do_step):
        self.weights = do_step(self.done, self.weights)
        self.done += 1
        if self.done % self.interval == 0 and self.done < self.steps:
            self.ckpt.save(self.done, self.weights)


def train(ckpt, steps, interval, do_step):
    job = Job(ckpt, steps, interval)
    while job.done < steps:
        job.step(do_step)
    return job.weights
