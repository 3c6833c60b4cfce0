"""workload_priority: the one priority of a Workload that lint, explain, schedule, preempt and simulate
use, per Kueue release (kueue pkg/util/priority Priority reads spec.priority; from v0.15 the
WorkloadPriorityClass controller keeps spec.priority equal to the class value)."""

from __future__ import annotations

import pytest

from quotactl.kueue.priority import follows_workload_priority_class, workload_priority
from quotactl.model.features import FeatureGates
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import naming_class, objects, pending, priority_class, workload_priority_class


def _info(wl: dict, *classes: dict, release: str = "v0.20", gates: dict | None = None):
    cluster = build_cluster(objects([wl, *classes]))
    return workload_priority(cluster, cluster.workloads["default/w"], FeatureGates(gates, release))


def test_kueue_follows_the_workload_priority_class_from_v0_15():
    assert not follows_workload_priority_class("v0.14")
    assert all(follows_workload_priority_class(r) for r in ("v0.15", "v0.19", "v0.20"))


@pytest.mark.parametrize(("release", "used"), [("v0.20", 1000), ("v0.15", 1000), ("v0.14", 5)])
def test_workload_priority_class_against_spec_priority(release, used):
    wl = naming_class(pending("w", "q", priority=5), "WorkloadPriorityClass", "high")
    info = _info(wl, workload_priority_class("high", 1000), release=release)
    assert (info.value, info.base, info.spec_value, info.class_value) == (used, used, 5, 1000)
    assert info.disagrees and info.note.endswith(f"with priority {used}")
    assert info.source == "WorkloadPriorityClass" and info.class_name == "high"


def test_pod_priority_class_is_never_followed():
    wl = naming_class(pending("w", "q", priority=5), "PriorityClass", "pc")
    info = _info(wl, priority_class("pc", 1000))
    assert (info.value, info.source, info.class_kind) == (5, "PriorityClass", "PriorityClass")
    assert info.disagrees and "does not follow PriorityClass changes" in info.note


def test_agreeing_or_absent_class_has_no_note():
    wl = naming_class(pending("w", "q", priority=1000), "WorkloadPriorityClass", "high")
    agree = _info(wl, workload_priority_class("high", 1000))
    assert (agree.value, agree.disagrees, agree.note) == (1000, False, None)
    absent = _info(wl)
    assert (absent.value, absent.disagrees) == (1000, False)
    assert absent.note == "WorkloadPriorityClass high is not in the input; using spec.priority"


def test_workload_without_priority_gets_the_class_value_once_kueue_follows_it():
    wl = naming_class(pending("w", "q"), "WorkloadPriorityClass", "high")
    del wl["spec"]["priority"]
    assert _info(wl, workload_priority_class("high", 30)).value == 30
    assert _info(wl, workload_priority_class("high", 30), release="v0.14").value == 0


def test_priority_boost_adds_to_the_class_value():
    wl = naming_class(pending("w", "q", priority=5), "WorkloadPriorityClass", "high")
    wl["metadata"]["annotations"] = {"kueue.x-k8s.io/priority-boost": "7"}
    info = _info(wl, workload_priority_class("high", 100), gates={"PriorityBoost": True})
    assert (info.value, info.base, info.boost) == (107, 100, 7)
