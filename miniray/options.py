"""The options Ray accepts for tasks and actors, checked the way Ray checks them."""

from __future__ import annotations

from .strategies import PlacementGroupSchedulingStrategy

TASK_OPTIONS = {
    "num_cpus",
    "num_gpus",
    "resources",
    "memory",
    "object_store_memory",
    "accelerator_type",
    "max_calls",
    "max_retries",
    "retry_exceptions",
    "num_returns",
    "name",
    "scheduling_strategy",
    "placement_group",
    "placement_group_bundle_index",
    "placement_group_capture_child_tasks",
    "runtime_env",
    "label_selector",
    "fallback_strategy",
    "enable_task_events",
    "_metadata",
}
ACTOR_OPTIONS = {
    "num_cpus",
    "num_gpus",
    "resources",
    "memory",
    "object_store_memory",
    "accelerator_type",
    "max_restarts",
    "max_task_retries",
    "max_concurrency",
    "max_pending_calls",
    "name",
    "namespace",
    "lifetime",
    "scheduling_strategy",
    "placement_group",
    "placement_group_bundle_index",
    "placement_group_capture_child_tasks",
    "get_if_exists",
    "runtime_env",
    "label_selector",
    "fallback_strategy",
    "concurrency_groups",
    "enable_task_events",
    "allow_out_of_order_execution",
    "retry_exceptions",
    "_metadata",
}
METHOD_OPTIONS = {
    "num_returns",
    "max_task_retries",
    "retry_exceptions",
    "concurrency_group",
    "name",
    "enable_task_events",
    "tensor_transport",
}


def legacy_placement(opts: dict) -> dict:
    """Ray's older spelling `.options(placement_group=pg, placement_group_bundle_index=i)` means
    the same as a PlacementGroupSchedulingStrategy: translate it, so the task or actor really uses
    the group's reservation and dies when the group is removed, as in Ray."""
    pg = opts.get("placement_group")
    if pg is None or pg == "default" or opts.get("scheduling_strategy") is not None:
        return opts
    opts["scheduling_strategy"] = PlacementGroupSchedulingStrategy(
        pg,
        opts.get("placement_group_bundle_index", -1),
        opts.get("placement_group_capture_child_tasks"),
    )
    return opts


def validate(opts: dict, kind: str) -> dict:
    valid = {"task": TASK_OPTIONS, "actor": ACTOR_OPTIONS, "method": METHOD_OPTIONS}[kind]
    noun = {"task": "remote functions", "actor": "actors", "method": "actor methods"}[kind]
    for key in opts:
        if key not in valid:
            raise ValueError(f"Invalid option keyword {key} for {noun}. Valid ones are {sorted(valid)}.")
    for key in ("num_cpus", "num_gpus", "memory", "object_store_memory"):
        value = opts.get(key)
        if value is not None and (
            not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0
        ):
            raise ValueError(f"The keyword '{key}' only accepts None, 0 or a positive number, got {value!r}.")
    resources = opts.get("resources")
    if resources is not None:
        if not isinstance(resources, dict):
            raise TypeError(f"The 'resources' option must be a dict, got {type(resources).__name__}.")
        for name, qty in resources.items():
            if name in ("CPU", "GPU"):
                raise ValueError(
                    f"Use the '{name.lower()}s' keyword (num_cpus/num_gpus) instead of "
                    f"resources={{'{name}': ...}}."
                )
            if not isinstance(qty, (int, float)) or qty < 0:
                raise ValueError(
                    f"Resource quantities must be non-negative numbers: resources[{name!r}] = {qty!r}."
                )
    for key in ("max_retries", "max_restarts", "max_task_retries"):
        value = opts.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < -1):
            raise ValueError(
                f"The keyword '{key}' only accepts -1 (forever), 0 or a positive integer, got {value!r}."
            )
    retry = opts.get("retry_exceptions")
    if retry is not None and not isinstance(retry, bool):
        if not isinstance(retry, (list, tuple)) or not all(
            isinstance(t, type) and issubclass(t, BaseException) for t in retry
        ):
            raise TypeError(
                f"retry_exceptions must be True, False, or a list of exception classes; got {retry!r}."
            )
    legacy_placement(opts)  # the legacy placement_group= options mean a PlacementGroupSchedulingStrategy
    num_returns = opts.get("num_returns")
    if num_returns in ("streaming", "dynamic"):  # generator tasks (miniray/generators.py)
        return opts
    if num_returns is not None and (not isinstance(num_returns, int) or num_returns < 0):
        raise ValueError(f"num_returns must be a non-negative integer, got {num_returns!r}.")
    return opts
