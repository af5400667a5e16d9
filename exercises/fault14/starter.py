def train(ckpt, steps, interval, do_step):
    """Run `steps` training steps from weights 1 and return the final weights, or None to stop
    early (the launcher then starts the job again). Resume from ckpt.load(); ckpt.save(done,
    weights) every `interval` steps. A preemption notice for the job's node is not used yet."""
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done % interval == 0 and done < steps:
            ckpt.save(done, weights)
    return weights
