"""Differential test: lint, explain, preempt and schedule give one answer on the same input.

Each command is run through the CLI (the JSON contract) on a few hundred random small clusters.
The clusters hold states Kueue could have reached (admitted usage within nominal quota) and pending
workloads with the shapes that made the commands disagree before there was one copy of each rule:
a resource no ClusterQueue covers, container or pod-level requests above their limits, a request
larger than any quota could ever be, a queue name that names no LocalQueue.

For every pending workload:

* lint's "can never be admitted" verdict (KQ508/KQ511/KQ512/KQ516) means schedule never admits it,
  explain does not call it Fit and preempt finds no victims for it;
* a workload that schedule admits has no such verdict;
* explain and preempt report the same representative mode;
* when it is the only pending workload: explain's Fit is schedule's admission in cycle 1 on the
  same flavors, and preempt's victims are exactly the workloads schedule preempts for it in cycle 1.

Workloads may name a WorkloadPriorityClass or a PriorityClass (present in the input or not) whose
value may disagree with their spec.priority. Every priority explain, preempt and schedule report is
the one Kueue schedules with: the WorkloadPriorityClass value when the class is in the input (Kueue
v0.15+ rewrites spec.priority to it, pkg/controller/core/workloadpriorityclass_controller.go), else
spec.priority (a PriorityClass is never followed); and lint's KQ420 flags exactly the Workloads whose
spec.priority and class value differ, naming that same priority.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import run_cli
from tests.kueue.builders import (
    admitted,
    cohort,
    cq,
    flavor,
    lq,
    naming_class,
    pending,
    priority_class,
    workload_priority_class,
)
from tests.property_budget import examples

NEVER_ADMISSIBLE = frozenset({"KQ508", "KQ511", "KQ512", "KQ516"})
FLAVORS = ("f0", "f1")
RES = ("cpu", "memory")
POLICIES = ("Never", "LowerPriority", "Any")
WITHIN = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")
PRIORITIES = (0, 5, 10)
# (kind, name) a workload may name; None: no class.
CLASS_REFS = (None, None, ("WorkloadPriorityClass", "wpc-a"), ("WorkloadPriorityClass", "wpc-b"),
              ("PriorityClass", "pc-a"))
TWISTS = ("plain", "plain", "plain", "uncovered", "container-over-limit", "pod-over-limit", "huge",
          "no-local-queue")


def _twisted(wl: dict, twist: str) -> dict:
    """Give a pending workload one of the shapes that once made the commands disagree."""
    pod = wl["spec"]["podSets"][0]["template"]["spec"]
    res = pod["containers"][0]["resources"]
    if twist == "uncovered":
        res["requests"]["example.com/gpu"] = "1"
    elif twist == "container-over-limit":
        res["requests"]["cpu"] = "2"
        res["limits"] = {"cpu": "1"}
    elif twist == "pod-over-limit":
        pod["resources"] = {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}
    elif twist == "huge":
        res["requests"]["cpu"] = "1e30"
    elif twist == "no-local-queue":
        wl["spec"]["queueName"] = "q-missing"
    return wl


def _priority_classes(draw) -> list[dict]:
    """Some of the classes CLASS_REFS name (a named class may be missing from the input)."""
    out = []
    for kind, name in (ref for ref in CLASS_REFS if ref is not None):
        if draw(st.booleans()):
            make = workload_priority_class if kind == "WorkloadPriorityClass" else priority_class
            out.append(make(name, draw(st.sampled_from(PRIORITIES))))
    return out


def _maybe_naming_class(draw, wl: dict) -> dict:
    ref = draw(st.sampled_from(CLASS_REFS))
    return naming_class(wl, *ref) if ref else wl


@st.composite
def clusters(draw):
    flavors = FLAVORS[:draw(st.integers(1, 2))]
    objs: list[dict] = [flavor(f) for f in flavors] + _priority_classes(draw)
    cohorts = [f"co{i}" for i in range(draw(st.sampled_from([0, 1, 1, 2])))]
    for i, name in enumerate(cohorts):
        objs.append(cohort(name, parent=cohorts[0] if i else None))
    cq_names = [f"cq{i}" for i in range(draw(st.integers(1, 3)))]
    nominal: dict[tuple, int] = {}
    for name in cq_names:
        co = draw(st.sampled_from(cohorts + [None])) if cohorts else None
        quotas = []
        for f in draw(st.permutations(flavors)):
            per_res = {}
            for r in RES:
                nominal[(name, f, r)] = n = draw(st.integers(0, 6))
                bl = draw(st.one_of(st.none(), st.integers(0, 4))) if co else None
                per_res[r] = (n, bl)
            quotas.append((f, per_res))
        reclaim = draw(st.sampled_from(POLICIES)) if co else "Never"
        objs.append(cq(name, [(list(RES), quotas)], cohort=co, within=draw(st.sampled_from(WITHIN)),
                       reclaim=reclaim, when_can_borrow=draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"])),
                       when_can_preempt=draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"]))))
        objs.append(lq("q-" + name, name))
    # Admitted workloads within nominal quota: a state Kueue reaches without any borrowing.
    left = dict(nominal)
    for i in range(draw(st.integers(0, 6))):
        name, f = draw(st.sampled_from(cq_names)), draw(st.sampled_from(flavors))
        usage = {(f, r): draw(st.integers(0, 3)) for r in RES}
        if all(v <= left[(name, f, r)] for (f, r), v in usage.items()):
            for (f, r), v in usage.items():
                left[(name, f, r)] -= v
            objs.append(_maybe_naming_class(draw, admitted(f"run{i}", name, usage,
                                                           priority=draw(st.sampled_from(PRIORITIES)),
                                                           reserved=10 + i)))
    for i in range(draw(st.integers(1, 3))):
        wl = pending(f"wait{i}", "q-" + draw(st.sampled_from(cq_names)),
                     {r: draw(st.integers(0, 5)) for r in RES}, count=draw(st.integers(1, 2)),
                     priority=draw(st.sampled_from(PRIORITIES)), created=5000 + i)
        objs.append(_twisted(_maybe_naming_class(draw, wl), draw(st.sampled_from(TWISTS))))
    return objs


def _run(path: Path, *args: str) -> dict:
    result = run_cli(*args, "-o", "json")
    assert result.exit_code in (0, 1), (args, result.exit_code, result.stderr)
    return json.loads(result.stdout)


def _workload_findings(path: Path, codes: frozenset[str]) -> dict[str, list[dict]]:
    """lint's findings with these codes on Workloads, by namespace/name."""
    doc = _run(path, "lint", str(path))
    out: dict[str, list[dict]] = {}
    for d in doc["diagnostics"]:
        if d["code"] in codes and d["object"].startswith("Workload/"):
            out.setdefault(d["object"].removeprefix("Workload/"), []).append(d)  # Workload/namespace/name
    return out


def _kueue_priorities(objs: list[dict]) -> tuple[dict[str, int], set[str]]:
    """The priority Kueue (v0.15+) schedules each Workload with, and the Workloads whose spec.priority
    disagrees with the value of a class in the input that they name."""
    values = {(o["kind"], o["metadata"]["name"]): o["value"] for o in objs
              if o["kind"] in ("WorkloadPriorityClass", "PriorityClass")}
    priorities, disagree = {}, set()
    for o in objs:
        if o["kind"] != "Workload":
            continue
        key, spec = f"default/{o['metadata']['name']}", o["spec"]
        ref = spec.get("priorityClassRef")
        class_value = values.get((ref["kind"], ref["name"])) if ref else None
        followed = class_value is not None and ref["kind"] == "WorkloadPriorityClass"
        priorities[key] = class_value if followed else spec["priority"]
        if class_value is not None and class_value != spec["priority"]:
            disagree.add(key)
    return priorities, disagree


def _flavors(explained: dict) -> dict:
    return {ps: {r: a["flavor"] for r, a in resources.items()}
            for ps, resources in (explained.get("podSets") or {}).items()}


SETTINGS = settings(max_examples=examples(250), deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(clusters())
def test_lint_explain_preempt_and_schedule_agree(objs):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.json"
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": objs}))
        findings = _workload_findings(path, NEVER_ADMISSIBLE | {"KQ420"})
        never = {k for k, ds in findings.items() if any(d["code"] in NEVER_ADMISSIBLE for d in ds)}
        priority, disagree = _kueue_priorities(objs)
        flagged = {k: d["message"] for k, ds in findings.items() for d in ds if d["code"] == "KQ420"}
        assert set(flagged) == disagree, ("KQ420", flagged, disagree)
        for key, message in flagged.items():
            assert message.endswith(f"this Workload with priority {priority[key]}"), (key, message)
        sched = _run(path, "schedule", "-f", str(path))
        admitted_by_schedule = {a["workload"]: a for a in sched["admitted"]}
        reported = [(a["workload"], a["priority"]) for a in sched["admitted"]]
        reported += [(p["workload"], p["priority"]) for p in sched["preempted"]]
        pending_keys = [f"default/{o['metadata']['name']}" for o in objs
                        if o["kind"] == "Workload" and "status" not in o]
        for key in pending_keys:
            explained = _run(path, "explain", key, "-f", str(path))
            preempted = _run(path, "preempt", key, "-f", str(path))
            mode = explained.get("representativeMode")
            assert mode == preempted.get("representativeMode"), (key, mode, preempted)
            victims = {v["workload"] for v in preempted["victims"]}
            reported += [(key, explained["priority"]["value"]), (key, preempted["priority"])]
            reported += [(v["workload"], v["priority"]) for v in preempted["victims"]]
            if key in never:
                assert key not in admitted_by_schedule, (key, "lint: never admissible; schedule admitted it")
                assert mode != "Fit", (key, "lint: never admissible; explain says Fit")
                assert not victims, (key, "lint: never admissible; preempt found victims", victims)
            if len(pending_keys) != 1:
                continue
            first = admitted_by_schedule.get(key)
            if mode == "Fit":
                assert first is not None and first["cycle"] == 1, (key, "explain: Fit; schedule:", first)
                assert first["flavors"] == _flavors(explained), (key, first["flavors"], explained["podSets"])
            by_schedule = {p["workload"] for p in sched["preempted"] if p["by"] == key and p["cycle"] == 1}
            assert victims == by_schedule, (key, "preempt:", victims, "schedule:", by_schedule)
        wrong = [(key, value, priority[key]) for key, value in reported if value != priority[key]]
        assert not wrong, ("priority reported / Kueue's", wrong)
