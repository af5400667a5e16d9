"""Lesson 7 quotes Ray 2.60's health-check defaults: read them from the installed Ray itself."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from faultlines.stories import detection

pytestmark = pytest.mark.conformance

READ = (
    "import json, ray._raylet as r; c = r.Config; "
    "print(json.dumps({n: getattr(c, n)() for n in ('health_check_period_ms', 'health_check_timeout_ms', "
    "'health_check_failure_threshold', 'health_check_initial_delay_ms')}))"
)


def test_health_check_defaults_are_ray_2_60s():
    ray_python = os.environ.get("RAY_PYTHON")
    if not ray_python:
        pytest.skip("RAY_PYTHON is unset: `make test` sets it to .venv-ray/bin/python (ray==2.60.0)")
    out = subprocess.run([ray_python, "-c", READ], capture_output=True, text=True, timeout=120, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {
        "health_check_period_ms": detection.RAY_HEALTH_CHECK_PERIOD_MS,
        "health_check_timeout_ms": detection.RAY_HEALTH_CHECK_TIMEOUT_MS,
        "health_check_failure_threshold": detection.RAY_HEALTH_CHECK_FAILURE_THRESHOLD,
        "health_check_initial_delay_ms": detection.RAY_HEALTH_CHECK_INITIAL_DELAY_MS,
    }
