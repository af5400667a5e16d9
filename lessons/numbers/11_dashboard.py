"""Numbers on lesson 11's page: the spill cliff (the course's model and a miniray run of it), and
the straggler and leak diagnoses, each from a miniray run."""

from __future__ import annotations

import inspect

from conformance.recorded_view import compare

# The diagnosis scenarios are being moved out of miniray; this is the page's one import of them.
from faultlines import diagnoses
from faultlines.stories import spill

GB = 10**9


# The story's store is larger than this machine; tests/conformance/scenarios/lesson11_spill.py
# overflows a small one on real Ray 2.60.
RAY_ROWS = [
    (
        "referenced blocks past the store's size",
        lambda o: "spilled to disk" if o["some_blocks_spilled"] else "kept",
    ),
    ("the oldest block, read back", lambda o: "intact" if o["oldest_block_intact"] else "damaged"),
]


# `ray memory` for a driver holding two blocks' refs, with Ray's defaults and with call sites on
# (tests/conformance/scenarios/lesson11_memory.py): its object rows, as each backend printed them.
MEMORY_SAID = [
    ("default", lambda o: _object_rows(o["default"]["_said_memory"])),
    ("call sites", lambda o: _object_rows(o["call_sites"]["_said_memory"])),
]
MEMORY_ROWS = [("driver-owned LOCAL_REFERENCE rows", lambda o: str(o["default"]["driver_local_refs"]))]
# The metrics the golden signals read, as Ray 2.60's metrics agent exported them; miniray's own names.
METRIC_NAMES = (
    "ray_object_store_memory",
    "ray_spill_manager_objects_bytes",
    "ray_spill_manager_request_total",
    "ray_tasks",
    "ray_actors",
)
METRICS_SAID = [("metrics", lambda o: _metric_lines(o["_said_metrics"]))]


def _object_rows(report: str) -> str:
    """The header and rows of `ray memory`'s object references (Ray's, or miniray's for the same
    program), without the blank lines Ray puts between rows."""
    lines = report.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("--- Object references")), 0)
    end = next(
        (i for i, line in enumerate(lines) if i > start and line.startswith("--- Aggregate")), len(lines)
    )
    return "\n".join(
        line for line in lines[start + 1 : end] if line.strip() and "To record callsite" not in line
    )


def _metric_lines(text: str) -> str:
    if not text.startswith("#"):  # miniray: the names of its sampled series, comma-separated
        return text
    return "\n".join(
        line for line in text.splitlines() if line.startswith("#") and line.split()[2] in METRIC_NAMES
    )


def _rays_words() -> dict[str, str]:
    memory = compare("lesson11_memory", MEMORY_ROWS, said=MEMORY_SAID)
    (ray_default, mini_default), (ray_sites, _) = memory.said_by("default"), memory.said_by("call sites")
    ray_metrics, mini_metrics = compare("lesson11_metrics", [], said=METRICS_SAID).said_by("metrics")
    return {
        "ray_says": ray_default,
        "ray_says_call_sites": ray_sites,
        "miniray_says": mini_default,
        "ray_metrics": ray_metrics,
        "miniray_metrics": mini_metrics,
    }


def numbers() -> dict[str, str]:
    seed = spill.SpillInputs()
    run = spill.measure(seed)
    model = spill.predict(seed)
    ray_default = spill.measure(spill.SpillInputs(threshold=0.8))
    fast_disk = spill.predict(spill.SpillInputs(disk_mb_s=2000))
    fits = spill.predict(spill.SpillInputs(live_gb=26))
    sweep = spill.sweep(seed)
    last_fit = max(r.inputs.live_gb for r in sweep if r.spilled_gb == 0)
    strag = diagnoses.straggler()
    even = diagnoses.straggler(skew=1)
    leak = diagnoses.leak(hold=True)
    fixed = diagnoses.leak(hold=False)
    golden = run.golden
    aggregate = run.memory_report[run.memory_report.index("--- Aggregate") :].rstrip()
    strag_defaults = inspect.signature(diagnoses.straggler).parameters
    leak_defaults = inspect.signature(diagnoses.leak).parameters
    return _rays_words() | {
        "ray_table": compare("lesson11_spill", RAY_ROWS).table(),
        "maps": str(strag_defaults["partitions"].default),
        "skew": str(strag_defaults["skew"].default),
        "leak_block_gb": f"{leak_defaults['block'].default / GB:g}",
        "leak_store_gb": f"{leak_defaults['store'].default / GB:g}",
        "store_gb": f"{seed.store_gb:g}",
        "live_gb": f"{seed.live_gb:g}",
        "block_gb": f"{seed.block_gb:g}",
        "extra_gb": f"{seed.extra_gb:g}",
        "disk_mb_s": f"{seed.disk_mb_s:g}",
        "readers": str(seed.readers),
        "cpus": str(seed.cpus),
        "fill_before": f"{run.fill_before_pct:.1f}",
        "fill_after": f"{run.fill_after_pct:.0f}",
        "spilled_gb": f"{run.spilled_gb:g}",
        "read_s": f"{run.read_s:g}",
        "disk_s": f"{run.disk_seconds:g}",
        "wall_s": f"{model.elapsed_s:g}",  # one disk serves every reader
        "miniray_wall_s": f"{run.elapsed_s:g}",  # the same run on miniray: one disk, reads in turn
        "memory_aggregate": aggregate,
        "last_fit_gb": f"{last_fit:g}",
        "fits_disk_s": f"{fits.disk_seconds:g}",
        "fast_disk_s": f"{fast_disk.disk_seconds:g}",
        "fast_read_s": f"{fast_disk.read_s:g}",
        "ray_fill_before": f"{ray_default.fill_before_pct:.0f}",
        "ray_spilled_gb": f"{ray_default.spilled_gb:g}",
        "golden_fill": f"{golden['object_store_fill_pct']['node:0']:g}",
        "golden_spill_mb_s": f"{golden['spill_rate_bytes_per_s']['node:0'] / 1e6:.0f}",
        "strag_median": f"{strag['median_map_s']:g}",
        "strag_slowest": f"{strag['slowest_map_s']:g}",
        "strag_ratio": f"{strag['straggler_ratio']:g}",
        "strag_reduce": f"{strag['reduce_starts_s']:g}",
        "even_reduce": f"{even['reduce_starts_s']:g}",
        "leak_iterations": str(len(leak["used_bytes"])),
        "leak_peak_gb": f"{max(leak['used_bytes']) / GB:g}",
        "leak_full_at": str(
            1 + next(i for i, u in enumerate(leak["used_bytes"]) if u == max(leak["used_bytes"]))
        ),
        "leak_spilled_gb": f"{leak['spilled_bytes'] / GB:g}",
        "leak_refs": str(leak["driver_refs"][-1]),
        "fixed_peak_gb": f"{max(fixed['used_bytes']) / GB:g}",
        "fixed_refs": str(fixed["driver_refs"][-1]),
        "fixed_spilled_gb": f"{fixed['spilled_bytes'] / GB:g}",
    }


if __name__ == "__main__":
    for key, value in numbers().items():
        print(f"{key}: {value}")
