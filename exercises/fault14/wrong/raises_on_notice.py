import miniray as ray


class Preempted(Exception):
    pass


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        if node in ray._private.state.state.get_draining_nodes():
            ckpt.save(done, weights)
            raise Preempted(f"node {node} is draining")  # max_retries=3 runs it again elsewhere
        if done % interval == 0:
            ckpt.save(done, weights)
    return weights
