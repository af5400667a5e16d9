# Correct, written apart from the reference: the lesson's shape, a while loop that asks a helper
# before each step whether its own node is draining. It saves on the notice only what the store
# does not hold yet (right after a periodic save there is nothing new) and returns None at once.
import miniray as ray


def _my_node_draining():
    node = ray.get_runtime_context().get_node_id()
    return node in ray._private.state.state.get_draining_nodes()


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    in_store = done if saved is not None else None
    while done < steps:
        if _my_node_draining():
            if in_store != done:
                ckpt.save(done, weights)
            return None
        weights = do_step(done, weights)
        done += 1
        if done % interval == 0 and done < steps:
            ckpt.save(done, weights)
            in_store = done
    return weights
