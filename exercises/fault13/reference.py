def failure_table():
    return {
        # A pure task: Ray runs it again on a live worker (default max_retries=3).
        "prepare-worker-crash": "retried",
        # Node 2 pulled prepare's output (embed and summarize took it as an argument), and so
        # did the driver's ray.wait: those copies survive node 1, so prepare is not re-run. The
        # last step's task that was running on node 1 is retried elsewhere.
        "prepare-output-node-lost": "retried",
        # max_restarts=1: a fresh actor (calls back to 0), and the call is sent again.
        "embed-actor-crash": "restarted",
        # The second kill exceeds max_restarts=1: the actor is dead for good.
        "embed-actor-crash-twice": "fails: ActorDiedError",
        # max_retries=0 (a side effect): the crash is final.
        "write-worker-crash": "fails: WorkerCrashedError",
        # A ray.put inside a task is owned by that task's worker; its node is gone, so is the owner.
        "summary-owner-node-lost": "fails: OwnerDiedError",
    }
