"""Fault kinds live in one table (miniray/fault_kinds.py): every part of miniray reads them there,
and adding one is one entry plus its handler (docs/design/contributing.md; tests/contributing/
shows it on a copy of miniray)."""

from __future__ import annotations

import inspect

import pytest

from miniray import sim
from miniray.fault_kinds import KINDS, moves
from miniray.faults import Fault, parse_token


def test_every_kind_has_its_helper_its_token_and_its_events():
    for name, kind in KINDS.items():
        helper = getattr(sim, name)
        assert helper.__doc__ == kind.doc and name in sim.__all__
        assert set(inspect.signature(helper).parameters) >= set(kind.params)
        assert all(isinstance(e, str) for e in kind.events)
    assert moves() == {"node_loss": "kill_node", "pause": "pause_node", "crash": "crash"}


def test_fields_a_kind_needs_are_checked_from_its_entry():
    with pytest.raises(ValueError, match="needs step="):
        Fault("crash", "f#1/1")
    with pytest.raises(ValueError, match="needs size="):
        Fault("use_memory", "load")
    with pytest.raises(ValueError, match="unknown fault kind 'boom'"):
        Fault("boom", "x")
    assert parse_token("crash f#1/1 step=0") == Fault("crash", "f#1/1", step=0)
