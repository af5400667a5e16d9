import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        periodic = done % interval == 0
        if periodic:
            ckpt.save(done, weights)
        # the draining table is a GCS call: ask every other step
        if done % 2 == 0 and node in ray._private.state.state.get_draining_nodes():
            if not periodic:
                ckpt.save(done, weights)
            return None
    return weights
