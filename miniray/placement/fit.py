"""Choosing nodes for a group's unplaced bundles under PACK, SPREAD, STRICT_PACK, STRICT_SPREAD.

One scheduling attempt asks two questions, as Ray's GCS scheduler does: can the unplaced bundles
go somewhere *now* (against available resources), and if not, could they ever (against the
alive nodes' totals)? The second answer separates NO_RESOURCES, which is retried, from
INFEASIBLE, which waits for a node to join. Bundles already placed stay where they are: that is
how a recovering group keeps its survivors.
"""

from __future__ import annotations

from ..cluster import EPS, label_matches


def _fits(have: dict, req: dict) -> bool:
    return all(have.get(k, 0.0) + EPS >= v for k, v in req.items())


def _take(have: dict, req: dict) -> None:
    for k, v in req.items():
        have[k] = have.get(k, 0.0) - v


def assign(group, nodes, use_totals: bool = False) -> dict | None:
    """{bundle index: node} for every unplaced bundle, or None if the strategy can't be met.

    Greedy in node order, so the answer is deterministic; `use_totals` asks the feasibility
    question (an empty cluster of the alive nodes) instead of the availability one.
    """
    # A draining node takes no new bundles (miniray/drain.py); it still counts for "could it ever fit".
    alive = [n for n in nodes if n.alive and (use_totals or n.drain is None)]
    pools = {n.index: dict(n.total if use_totals else n.available) for n in alive}
    if use_totals:  # survivors still occupy their nodes in the "could it ever fit" question
        for b in group.placed():
            if b.node.index in pools:
                _take(pools[b.node.index], b.resources)
    used = [b.node for b in group.placed()]
    todo = group.unplaced()
    strategy = group.strategy
    if strategy == "STRICT_PACK":
        homes = list(dict.fromkeys(used))
        if len(homes) > 1:
            return None  # survivors already split across nodes: cannot be packed again
        need: dict = {}
        for b in todo:
            for k, v in b.resources.items():
                need[k] = need.get(k, 0.0) + v
        for node in homes or alive:  # a recovering group must come back to its survivors' node
            if (
                node.alive
                and all(label_matches(node.labels, b.selector) for b in todo)
                and _fits(pools.get(node.index, {}), need)
            ):
                return {b.index: node for b in todo}
        return None
    out: dict = {}
    for b in todo:
        ok = [n for n in alive if label_matches(n.labels, b.selector) and _fits(pools[n.index], b.resources)]
        if strategy == "STRICT_SPREAD":
            ok = [n for n in ok if n not in used]
        elif strategy == "PACK":
            ok.sort(key=lambda n: (n not in used, n.index))
        elif strategy == "SPREAD":
            ok.sort(key=lambda n: (n in used, n.index))
        if not ok:
            return None
        node = ok[0]
        _take(pools[node.index], b.resources)
        used.append(node)
        out[b.index] = node
    return out
