import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    start, weights = saved if saved is not None else (0, 1)
    me = ray.get_runtime_context().get_node_id()
    told = False
    for step in range(start, steps):
        weights = do_step(step, weights)
        done = step + 1
        if done == steps:
            break
        told = me in ray._private.state.state.get_draining_nodes()
        if told or done % interval == 0:
            ckpt.save(done, weights)
        if told:
            break
    return None if told else weights
