"""The "Preemption Hardening" resource math (``GetPreemptableResource`` /
``GetRemainingGuaranteedResource``), on every example of the design and of preemption.go's snapshot arithmetic.

Where today's code (the spec) and the 2023 design text disagree, the test asserts today's value
and says what the design wrote.  The shared ``yunikorn-math`` cases (upstream unit tests) run in
tests/yunikorn/test_math_cases.py; ``test_every_shared_math_case`` re-runs them here so this file
alone covers the issue's resource math.
"""

from __future__ import annotations

import json

import pytest

from quotactl.model.yunikorn_resources import deep_equals, equals, is_zero
from quotactl.yunikorn.snapshot import (
    QueueSnapshot,
    build_snapshots,
    duplicate_snapshots,
    is_ask_queue_under_guaranteed,
    is_victim_queue_over_guaranteed,
)
from tests.helpers import CASES

# ------------------------------------------------------------------ design: one queue --------

PREEMPTABLE = [  # (guaranteed, used, preemptable) -- the design's three examples, quoted
    ({"vcores": 5}, {"vcores": 6}, {"vcores": 1}),
    ({"vcores": 5}, {"mem": 600}, {"mem": 600}),
    (None, {"vcores": 6, "mem": 600}, {"vcores": 6, "mem": 600}),
]
REMAINING = [  # (guaranteed, used, remaining guaranteed) -- quoted
    ({"vcores": 5}, {"vcores": 4}, {"vcores": 1}),
    ({"vcores": 5}, {"mem": 600}, {"vcores": 5}),
    (None, {"vcores": 6, "mem": 600}, None),
]


@pytest.mark.parametrize("guaranteed,used,want", PREEMPTABLE)
def test_design_preemptable(guaranteed, used, want):
    assert QueueSnapshot("root.q", guaranteed, used).preemptable() == want


@pytest.mark.parametrize("guaranteed,used,want", REMAINING)
def test_design_remaining_guaranteed(guaranteed, used, want):
    assert deep_equals(QueueSnapshot("root.q", guaranteed, used).remaining_guaranteed(), want)


# ------------------------------------------------------------------ design: trees ------------

def _design_tree(parent1_guaranteed):
    """Root.parent (max vcores 20) -> parent1 -> {child1 (G 5, used 10), child2 (G 5, ask)};
    parent -> parent2 (used 10)."""
    return build_snapshots([
        {"path": "root", "allocated": {"vcores": 20}},
        {"path": "root.parent", "allocated": {"vcores": 20}},
        {"path": "root.parent.parent1", "guaranteed": parent1_guaranteed, "allocated": {"vcores": 10}},
        {"path": "root.parent.parent1.child1", "guaranteed": {"vcores": 5}, "allocated": {"vcores": 10}},
        {"path": "root.parent.parent1.child2", "guaranteed": {"vcores": 5}, "allocated": {}},
        {"path": "root.parent.parent2", "allocated": {"vcores": 10}},
    ], ask_queue="root.parent.parent1.child2")


def test_design_example_1_guarantee_on_parent1():
    s = _design_tree({"vcores": 10})
    child1, parent1, child2 = (s[f"root.parent.parent1.{n}"] if n != "parent1" else s["root.parent.parent1"]
                               for n in ("child1", "parent1", "child2"))
    assert child1.remaining_guaranteed() == {"vcores": -5}
    # The design wrote parent1 = 0 and child2 = min(5, 0) = 0.  Today's code: an ancestor of the ask
    # queue that has its own guarantee does not cap an ask queue that has one (nil), so child2 keeps 5.
    assert parent1.remaining_guaranteed() is None
    assert child2.remaining_guaranteed() == {"vcores": 5}
    # the design's point stands: taking a 5-vcore victim from child1 brings it to its guarantee and
    # leaves the ask queue within its guarantee with a 5-vcore ask
    copy = duplicate_snapshots(s)
    copy["root.parent.parent1.child1"].remove_allocation({"vcores": 5})
    copy["root.parent.parent1.child2"].add_allocation({"vcores": 5})
    assert copy["root.parent.parent1.child1"].remaining_guaranteed() == {"vcores": 0}
    assert is_ask_queue_under_guaranteed({"vcores": 5}, copy["root.parent.parent1.child2"].remaining_guaranteed())


def test_design_example_2_guarantee_only_on_the_children():
    s = _design_tree(None)
    assert s["root.parent.parent1.child1"].remaining_guaranteed() == {"vcores": -5}  # as the design says
    assert s["root.parent.parent1.child2"].remaining_guaranteed() == {"vcores": 5}  # as the design says
    assert s["root.parent.parent1"].remaining_guaranteed() is None
    # "the ask could be accommodated always easily in child2 because there is remaining guaranteed"
    assert is_ask_queue_under_guaranteed({"vcores": 5}, s["root.parent.parent1.child2"].remaining_guaranteed())
    assert is_victim_queue_over_guaranteed({"vcores": 5}, s["root.parent.parent1.child1"].remaining_guaranteed())


# ------------------------------------------------------ preemption.go snapshot arithmetic table ---

def test_spec_preemptable_table():
    assert QueueSnapshot("root.q", {"vcore": 5}, {"vcore": 6}).preemptable() == {"vcore": 1}
    assert QueueSnapshot("root.q", {"vcore": 5, "memory": 10}, {"vcore": 6, "memory": 4}).preemptable() == {"vcore": 1}
    assert QueueSnapshot("root.q", {"vcore": 5}, {"vcore": 4, "memory": 8}).preemptable() == {"memory": 8}
    assert QueueSnapshot("root.q", None, {"vcore": 3}).preemptable() == {"vcore": 3}
    assert QueueSnapshot("root.q", {"vcore": 5}, {"vcore": 6}, {"vcore": 1}).preemptable() == {}
    assert QueueSnapshot("root.q", {"vcore": 5}, {}).preemptable() is None  # no usage: nil
    parent = QueueSnapshot("root.p", {"vcore": 8}, {"vcore": 9})
    child = QueueSnapshot("root.p.c", {"vcore": 2}, {"vcore": 5}, parent=parent)
    assert child.preemptable() == {"vcore": 1}  # 3 above its guarantee, capped by the parent's 1


def test_spec_remaining_table():
    assert QueueSnapshot("root.q", {"vcore": 5}, {"vcore": 6}).remaining_guaranteed() == {"vcore": -1}
    assert QueueSnapshot("root.q", {"vcore": 5}, {"memory": 4}).remaining_guaranteed() == {"vcore": 5}
    parent = QueueSnapshot("root.p", {"vcore": 6}, {})
    assert QueueSnapshot("root.p.c", None, {"vcore": 1}, parent=parent).remaining_guaranteed() == {"vcore": 6}


def test_remove_and_add_allocation_walk_up():
    s = build_snapshots([
        {"path": "root", "allocated": {"vcore": 9}},
        {"path": "root.a", "guaranteed": {"vcore": 5}, "allocated": {"vcore": 9}},
    ], ask_queue=None)
    s["root.a"].remove_allocation({"vcore": 3, "pods": 1})
    assert s["root.a"].allocated == {"vcore": 6, "pods": -1} and s["root"].allocated == {"vcore": 6, "pods": -1}
    copy = duplicate_snapshots(s)
    copy["root.a"].add_allocation({"vcore": 1})
    assert copy["root"].allocated["vcore"] == 7 and s["root"].allocated["vcore"] == 6
    assert copy["root.a"].parent is copy["root"]


# ------------------------------------------------------------------ the shared cases ---------

CASES = sorted(p.parent for p in (CASES / "yunikorn-math").glob("*/case.json"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_shared_math_case(case):
    spec = json.loads((case / "case.json").read_text())
    fn, inp, want = spec["function"], spec["input"], spec["expect"]
    if fn == "isAskQueueUnderGuaranteed":
        assert is_ask_queue_under_guaranteed(inp["askResource"], inp["askQueueRemainingGuaranteed"]) is want
        return
    if fn == "isVictimQueueOverGuaranteed":
        assert is_victim_queue_over_guaranteed(inp["askResource"], inp["victimQueueRemainingGuaranteed"]) is want
        return
    method = {"QueuePreemptionSnapshot.GetPreemptableResource": "preemptable",
              "QueuePreemptionSnapshot.GetRemainingGuaranteedResource": "remaining_guaranteed"}[fn]

    def same(got, expected):
        how = spec.get("compare", "")
        if "DeepEquals" in how:
            return deep_equals(got, expected)
        if expected is None:
            return got is None if "must be nil" in how else is_zero(got)
        return got is not None and equals(got, expected)

    if "queues" in inp:
        snaps = build_snapshots(inp["queues"], inp.get("askQueue"))
        for path, expected in want.items():
            got = getattr(snaps[path], method)()
            assert same(got, expected), f"{path}: got {got}, want {expected}"
    else:
        got = getattr(QueueSnapshot("root.q", inp.get("guaranteed"), inp.get("used")), method)()
        assert same(got, want), f"got {got}, want {want}"
