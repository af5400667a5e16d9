def blacklist(failures, nodes):
    """The nodes to stop placing work on, given every failed attempt so far.

    failures: a list of {"node": ..., "record": ..., "kind": "died" or "error", "error": class name}
    nodes:    the worker nodes' names
    """
    return {failure["node"] for failure in failures}
