def failure_table():
    """One answer per row: "fails: ErrorName", "reconstructed", "restarted", "retried" or
    "unaffected". Fill in every row."""
    return {
        "prepare-worker-crash": "?",
        "prepare-output-node-lost": "?",
        "embed-actor-crash": "?",
        "embed-actor-crash-twice": "?",
        "write-worker-crash": "?",
        "summary-owner-node-lost": "?",
    }
