import miniray as ray


def train(ckpt, steps, interval, do_step):
    # Started again after a notice, a crash or a lost node: go on from the last checkpoint.
    saved = ckpt.load()
    done, weights = saved if saved is not None else (0, 1)
    node = ray.get_runtime_context().get_node_id()
    while done < steps:
        # The notice is in the GCS's draining table, the one place Ray 2.60 shows it. Looking
        # before every step costs nothing; a step and a save fit before the deadline.
        if node in ray._private.state.state.get_draining_nodes():
            ckpt.save(done, weights)
            return None  # give the node back: the launcher starts the job again elsewhere
        weights = do_step(done, weights)
        done += 1
        if done % interval == 0 and done < steps:
            ckpt.save(done, weights)
    return weights
