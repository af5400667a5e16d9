import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    saved_for_notice = False
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        if done % interval == 0:
            ckpt.save(done, weights)
        elif not saved_for_notice and node in ray._private.state.state.get_draining_nodes():
            # checkpoint now so Ray's retry picks up from here when the node goes
            ckpt.save(done, weights)
            saved_for_notice = True
    return weights
