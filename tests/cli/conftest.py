"""Fixtures of the hostile-corpus tests (hostile_support.py holds the helpers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import Listener, make_scratch


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return make_scratch(tmp_path_factory.mktemp("scratch-repo"))


@pytest.fixture(scope="module")
def listener():
    server = Listener()
    yield server.port, server.accepted
    server.close()
