# Correct, written apart from the reference: a small class reads the draining table for the node
# the task runs on (`.get(node) is not None`: a drain with no deadline is listed with 0); the job
# looks after every step and after every periodic save, and stops by breaking out of its loop.
import miniray as ray


class Notice:
    def __init__(self):
        self.node = ray.get_runtime_context().get_node_id()

    def deadline_ms(self):
        return ray._private.state.state.get_draining_nodes().get(self.node)

    def came(self):
        return self.deadline_ms() is not None


def train(ckpt, steps, interval, do_step):
    notice = Notice()
    done, weights = ckpt.load() or (0, 1)
    stopped = False
    while done < steps:
        weights = do_step(done, weights)
        done += 1
        if done == steps:
            break
        periodic = done % interval == 0
        if periodic:
            ckpt.save(done, weights)
        if notice.came():
            if not periodic:
                ckpt.save(done, weights)
            stopped = True
            break
    if stopped:
        return None
    return weights
