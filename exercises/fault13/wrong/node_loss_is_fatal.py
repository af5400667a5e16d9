def failure_table():
    return {
        "prepare-worker-crash": "retried",
        "prepare-output-node-lost": "fails: ObjectLostError",
        "embed-actor-crash": "restarted",
        "embed-actor-crash-twice": "fails: ActorDiedError",
        "write-worker-crash": "fails: WorkerCrashedError",
        "summary-owner-node-lost": "fails: OwnerDiedError",
    }
