"""Course models: arithmetic and small simulations that teach, kept out of miniray because they
are not Ray's semantics (a retry budget is not a Ray feature; the OOM model is the course's
picture of Ray's memory monitor, not Ray itself)."""
