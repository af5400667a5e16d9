import miniray as ray


def node_going_away():
    me = ray.get_runtime_context().get_node_id()
    for n in ray.nodes():
        if n["NodeID"] == me:
            return not n["Alive"]
    return True


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        if node_going_away():
            ckpt.save(done, weights)
            return None
        if done % interval == 0:
            ckpt.save(done, weights)
    return weights
