import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    start, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    for step in range(start, steps):
        weights = do_step(step, weights)
        if step + 1 == steps:
            break
        if node in ray._private.state.state.get_draining_nodes():
            ckpt.save(step, weights)
            return None
        if (step + 1) % interval == 0:
            ckpt.save(step + 1, weights)
    return weights
