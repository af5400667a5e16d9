def failure_table():
    return {
        "prepare-worker-crash": "fails: WorkerCrashedError",  # "prepare sets no max_retries"
        "prepare-output-node-lost": "retried",
        "embed-actor-crash": "restarted",
        "embed-actor-crash-twice": "fails: ActorDiedError",
        "write-worker-crash": "fails: WorkerCrashedError",
        "summary-owner-node-lost": "fails: OwnerDiedError",
    }
