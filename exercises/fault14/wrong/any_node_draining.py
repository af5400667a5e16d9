import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        if ray._private.state.state.get_draining_nodes():
            ckpt.save(done, weights)
            return None
        if done % interval == 0:
            ckpt.save(done, weights)
    return weights
