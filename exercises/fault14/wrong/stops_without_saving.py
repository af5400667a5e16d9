import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    while done < steps:
        if node in ray._private.state.state.get_draining_nodes():
            return None  # let the launcher move us off this node
        weights = do_step(done, weights)
        done += 1
        if done % interval == 0 and done < steps:
            ckpt.save(done, weights)
    return weights
