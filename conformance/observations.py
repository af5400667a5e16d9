"""Comparing what two backends observed, and real Ray's recorded observations.

A scenario's observations are a JSON tree (run counts, exception class names, final states);
keys starting with "_" are shown in reports but never compared.
"""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Real Ray 2.60's observations, recorded by tests/conformance/record.py.
RECORDED = REPO / "tests" / "conformance" / "recorded" / "ray-2.60.0.json"


def differences(expected: object, actual: object, path: str = "$") -> list[str]:
    """Paths where two observation trees differ; keys starting with "_" are not compared."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in sorted(set(expected) | set(actual)):
            if key.startswith("_"):
                continue
            if key not in actual:
                out.append(f"{path}.{key}: only in the first ({expected[key]!r})")
            elif key not in expected:
                out.append(f"{path}.{key}: only in the second ({actual[key]!r})")
            else:
                out += differences(expected[key], actual[key], f"{path}.{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += differences(e, a, f"{path}[{i}]")
        return out
    return [] if expected == actual else [f"{path}: {expected!r} != {actual!r}"]


def mismatch_report(
    scenario: str, first_name: str, first: object, second_name: str, second: object, diffs: list[str]
) -> str:
    return "\n".join(
        [f"scenario {scenario}: {len(diffs)} difference(s) between {first_name} and {second_name}"]
        + ["  " + d for d in diffs]
        + [
            f"{first_name} observed:",
            json.dumps(first, indent=2, sort_keys=True),
            f"{second_name} observed:",
            json.dumps(second, indent=2, sort_keys=True),
        ]
    )


def recorded_file() -> dict:
    """The whole recording: {"ray": version, "scenarios": {name: observations}, "wall_s": {...}}."""
    return json.loads(RECORDED.read_text()) if RECORDED.exists() else {}


def load_recorded() -> dict:
    """Real Ray's recorded observations by scenario name."""
    return recorded_file().get("scenarios", {})


def save_recorded(observations: dict, walls: dict) -> None:
    """Merge scenarios' observations and real-Ray wall times into the recording."""
    data = recorded_file()
    data["ray"] = "2.60.0"
    data.setdefault("scenarios", {}).update(observations)
    data.setdefault("wall_s", {}).update(walls)
    RECORDED.parent.mkdir(exist_ok=True)
    RECORDED.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
