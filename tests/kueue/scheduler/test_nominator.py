"""The nominator's shared nominations: their key is derived from what the assigner reads of a
workload (``nomination.NominationInputs``), so a field added for a new rule cannot reuse a
nomination made for a workload whose field differs."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import quotactl
from quotactl.kueue import nomination
from quotactl.kueue.assign import FlavorAssigner
from quotactl.kueue.explain import explain_workload
from quotactl.kueue.nomination import NominationInputs, kin_key
from quotactl.kueue.options import engine_options
from quotactl.kueue.preemption.common import Preemptor
from quotactl.kueue.preemption.policy import LOWER_OR_NEWER_EQUAL_PRIORITY
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.scheduler import ADMITTED, schedule
from quotactl.kueue.scheduler import nominator as nominator_module
from quotactl.kueue.workload import PodSetRequest, pod_set_requests
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import configuration, cq, flavor, lq, objects, pending, with_queues

RES = ["cpu", "memory"]


@dataclasses.dataclass(frozen=True, slots=True)
class TopologyInputs(NominationInputs):
    """A rule of the next issues in miniature: the assigner starts reading a new workload field
    (here ``topology``: "unplaceable" makes every pod set ask for far more than any quota)."""

    topology: str = ""

    def assigner(self, snapshot, cq, scan_start=None):
        inputs = self
        if self.topology == "unplaceable":
            inputs = dataclasses.replace(self, requests=tuple(
                PodSetRequest(r.name, r.count, {k: v * 1000 for k, v in r.per_pod.items()},
                              {k: v * 1000 for k, v in r.total.items()}) for r in self.requests))
        return NominationInputs.assigner(inputs, snapshot, cq, scan_start)


def _with_topology(monkeypatch) -> None:
    """Every nomination of the scheduler reads the new field: workloads named ``*-pinned`` are
    unplaceable."""
    base = nomination.nomination_inputs

    def inputs(cluster, snapshot, wl, *args):
        made = base(cluster, snapshot, wl, *args)
        fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(made)}
        return TopologyInputs(**fields, topology="unplaceable" if wl.key.endswith("-pinned") else "")

    monkeypatch.setattr(nominator_module, "nomination_inputs", inputs)


def _twins():
    """Two workloads of one shape in one ClusterQueue, sharing their pod set objects as a
    generator's do: the pinned one is older, so it is the head first, does not fit and parks;
    then the other one is the head on the same snapshot (equivalence hashing off: it would
    park the twin with the pinned one, a rule of its own)."""
    pinned = pending("a-pinned", "q-c", {"cpu": 1, "memory": 1}, created=1000)
    free = pending("b", "q-c", {"cpu": 1, "memory": 1}, created=1001)
    free["spec"]["podSets"] = pinned["spec"]["podSets"]  # one raw list: the model shares the objects
    dicts = [flavor("f0"), cq("c", [(RES, [("f0", {"cpu": 10, "memory": 10})])]), pinned, free,
             configuration()]
    cluster = build_cluster(objects(with_queues(dicts)))
    assert cluster.workloads["default/a-pinned"].pod_sets is cluster.workloads["default/b"].pod_sets
    return cluster, engine_options(cluster, feature_gates={"SchedulingEquivalenceHashing": False})


def _old_kin_key(inputs: NominationInputs, cq) -> tuple:
    """The key before the nominator (``cycle.Scheduler._kin``): a hand-written list of fields."""
    p = cq.preemption
    ts = inputs.queue_order_timestamp if LOWER_OR_NEWER_EQUAL_PRIORITY in (
        p.within_cluster_queue, p.reclaim_within_cohort) else None
    return id(inputs.pod_sets), id(inputs.requests), inputs.priority, ts


def test_a_field_the_assigner_starts_reading_keeps_nominations_apart(monkeypatch):
    _with_topology(monkeypatch)
    cluster, options = _twins()
    r = schedule(cluster, options)
    assert [a.workload for a in r.admitted] == ["default/b"]
    assert {p.workload for p in r.pending} == {"default/a-pinned"}


def test_the_old_hand_listed_key_would_reuse_the_pinned_workloads_nomination(monkeypatch):
    """The same run with the old key: the free workload takes the pinned one's NoFit and never
    runs (what the test above guards against)."""
    _with_topology(monkeypatch)
    monkeypatch.setattr(nominator_module, "kin_key", _old_kin_key)
    cluster, options = _twins()
    r = schedule(cluster, options)
    assert r.admitted == ()
    assert {p.workload for p in r.pending} == {"default/a-pinned", "default/b"}


def test_twins_without_the_new_field_share_one_nomination():
    cluster, options = _twins()  # no topology rule: both fit, and the second reuses nothing stale
    r = schedule(cluster, options)
    assert sorted(a.workload for a in r.admitted) == ["default/a-pinned", "default/b"]
    assert all(h.outcome == ADMITTED for c in r.cycles for h in c.heads)


def test_every_field_enters_the_key_unless_declared():
    cluster, options = _twins()
    snap = build_snapshot(cluster, options)
    c = snap.cluster_queues["c"]
    pinned, free = cluster.workloads["default/a-pinned"], cluster.workloads["default/b"]
    requests = pod_set_requests(pinned, options)  # the scheduler's memo: one tuple per pod set objects
    a = nomination.nomination_inputs(cluster, snap, pinned, requests=requests)
    b = nomination.nomination_inputs(cluster, snap, free, requests=requests)
    assert kin_key(a, c) == kin_key(b, c)  # names and uids are declared unread; the rest is shared
    fields = {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}
    assert kin_key(TopologyInputs(**fields, topology="x"), c) != kin_key(TopologyInputs(**fields), c)
    assert kin_key(dataclasses.replace(a, priority=a.priority + 1), c) != kin_key(a, c)


def test_the_assigner_gets_the_workload_only_through_nomination_inputs():
    """A new parameter of the assigner fed from the workload must come from a field of
    ``NominationInputs`` (so that it is in the key): the constructor's workload-side
    parameters are exactly what ``NominationInputs.assigner`` passes, and nothing else in the
    package builds an assigner."""
    params = set(inspect.signature(FlavorAssigner.__init__).parameters)
    not_the_workload = {"self", "snapshot", "cq", "oracle", "scan_start"}
    assert params - not_the_workload == {"preemptor", "pod_sets", "requests", "preset"}
    names = {f.name for f in dataclasses.fields(NominationInputs)}
    assert set(Preemptor._fields) - {"cluster_queue"} <= names
    root = Path(quotactl.__file__).parent
    builders = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                      if re.search(r"\bFlavorAssigner\(", p.read_text()))
    assert builders == ["kueue/assign.py", "kueue/nomination.py"]


def test_explain_and_the_scheduler_stop_a_head_at_the_same_pre_check():
    """``nomination.nomination_check`` is the one sequence both call: a workload failing the
    namespace selector and the limits check gets the namespace verdict from both, one failing
    only the limits check the limits verdict."""
    ns = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n, "labels": {"team": t}}}
          for n, t in (("a", "ml"), ("b", "web"))]
    queue = cq("c", [(RES, [("f0", {"cpu": 10, "memory": 10})])], selector={"matchLabels": {"team": "ml"}})
    dicts = ns + [flavor("f0"), queue, configuration()]
    for name, namespace in (("both", "b"), ("limits", "a")):
        wl = pending(name, "q-c", {"cpu": 1, "memory": 1}, ns=namespace)
        wl["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["limits"] = {"cpu": "500m"}
        dicts.append(wl)
        dicts.append(lq("q-c", "c", ns=namespace))
    cluster = build_cluster(objects(dicts))
    options = engine_options(cluster)
    pending_by_key = {p.workload: p for p in schedule(cluster, options).pending}
    snap = build_snapshot(cluster, options)
    for key in ("b/both", "a/limits"):
        e = explain_workload(cluster, snap, cluster.workloads[key])
        assert (e.reason, e.message) == (pending_by_key[key].reason, pending_by_key[key].message)
    assert "namespace" in pending_by_key["b/both"].message.lower()
    assert "requests must not exceed its limits" in pending_by_key["a/limits"].message
