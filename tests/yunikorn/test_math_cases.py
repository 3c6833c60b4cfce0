"""The shared ``yunikorn-math`` cases (kind ``resource-math``) as unit tests of the snapshot arithmetic."""

import json

import pytest

from quotactl.model.yunikorn_resources import deep_equals, equals, is_zero
from quotactl.yunikorn.snapshot import (
    QueueSnapshot,
    build_snapshots,
    is_ask_queue_under_guaranteed,
    is_victim_queue_over_guaranteed,
)
from tests.helpers import CASES

SUITE = CASES / "yunikorn-math"
CASES = sorted(p.parent for p in SUITE.glob("*/case.json"))


def _load(case):
    return json.loads((case / "case.json").read_text())


def test_suite_is_present():
    assert len(CASES) >= 40


def _compare(spec, got, want) -> bool:
    how = spec.get("compare", "")
    if "DeepEquals" in how:
        return deep_equals(got, want)
    if want is None:
        return got is None if "must be nil" in how else is_zero(got)
    return got is not None and equals(got, want)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_math_case(case):
    spec = _load(case)
    assert spec["kind"] == "resource-math"
    fn, inp, want = spec["function"], spec["input"], spec["expect"]
    if fn == "isAskQueueUnderGuaranteed":
        assert is_ask_queue_under_guaranteed(inp["askResource"], inp["askQueueRemainingGuaranteed"]) is want
        return
    if fn == "isVictimQueueOverGuaranteed":
        assert is_victim_queue_over_guaranteed(inp["askResource"], inp["victimQueueRemainingGuaranteed"]) is want
        return
    method = {"QueuePreemptionSnapshot.GetPreemptableResource": "preemptable",
              "QueuePreemptionSnapshot.GetRemainingGuaranteedResource": "remaining_guaranteed"}[fn]
    if "queues" in inp:
        snaps = build_snapshots(inp["queues"], inp.get("askQueue"))
        for path, expected in want.items():
            got = getattr(snaps[path], method)()
            assert _compare(spec, got, expected), f"{path}: got {got}, want {expected}"
    else:  # a single queue (design examples): no parent, no ask queue
        snap = QueueSnapshot("root.q", inp.get("guaranteed"), inp.get("used"))
        got = getattr(snap, method)()
        assert _compare(spec, got, want), f"got {got}, want {want}"
