# Correct, written apart from the reference: a for loop over the steps left that looks at the
# draining table at the top of each step (so after a periodic save too); on its own node's notice
# a flag is set and the loop breaks, and after it the job saves what the store lacks and returns None.
import miniray as ray


def train(ckpt, steps, interval, do_step):
    saved = ckpt.load()
    start, weights = saved if saved is not None else (0, 1)
    last_saved = start if saved is not None else -1
    me = ray.get_runtime_context().get_node_id()
    told, done = False, start
    for step in range(start, steps):
        if me in ray._private.state.state.get_draining_nodes():
            told = True
            break
        weights = do_step(step, weights)
        done = step + 1
        if done % interval == 0 and done < steps:
            ckpt.save(done, weights)
            last_saved = done
    if told:
        if last_saved != done:
            ckpt.save(done, weights)
        return None
    return weights
