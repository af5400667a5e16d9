def failure_table():
    return {
        "prepare-worker-crash": "retried",
        "prepare-output-node-lost": "retried",
        "embed-actor-crash": "retried",  # max_task_retries=1: "the call is retried"
        "embed-actor-crash-twice": "fails: ActorDiedError",
        "write-worker-crash": "fails: WorkerCrashedError",
        "summary-owner-node-lost": "fails: OwnerDiedError",
    }
