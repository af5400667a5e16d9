# Correct, written apart from the reference: a class per node keeps its strikes; the policy
# replays the whole history each call (it is given the whole history), so it keeps no state.
class NodeRecord:
    SYSTEM = frozenset({"ConnectionError", "TimeoutError", "OSError"})

    def __init__(self):
        self.strikes = 0

    def note(self, kind, error):
        if kind == "died" or error in self.SYSTEM:
            self.strikes += 1

    @property
    def bad(self):
        return self.strikes >= 3


def blacklist(failures, nodes):
    records = {node: NodeRecord() for node in nodes}
    for failure in failures:
        records[failure["node"]].note(failure["kind"], failure["error"])
    return [node for node, record in records.items() if record.bad]
