import time

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
        deadline_ms = ray._private.state.state.get_draining_nodes().get(node)
        # a save takes 1 s: keep training until only that is left
        if deadline_ms is not None and deadline_ms / 1000 - time.time() <= 1.0:
            if not periodic:
                ckpt.save(done, weights)
            return None
    return weights
