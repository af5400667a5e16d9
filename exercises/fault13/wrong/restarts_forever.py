def failure_table():
    return {
        "prepare-worker-crash": "retried",
        "prepare-output-node-lost": "retried",
        "embed-actor-crash": "restarted",
        "embed-actor-crash-twice": "restarted",
        "write-worker-crash": "fails: WorkerCrashedError",
        "summary-owner-node-lost": "fails: OwnerDiedError",
    }
