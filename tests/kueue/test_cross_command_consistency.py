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
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import run_cli
from tests.kueue.builders import admitted, cohort, cq, flavor, lq, pending

NEVER_ADMISSIBLE = frozenset({"KQ508", "KQ511", "KQ512", "KQ516"})
FLAVORS = ("f0", "f1")
RES = ("cpu", "memory")
POLICIES = ("Never", "LowerPriority", "Any")
WITHIN = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")
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


@st.composite
def clusters(draw):
    flavors = FLAVORS[:draw(st.integers(1, 2))]
    objs: list[dict] = [flavor(f) for f in flavors]
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
            objs.append(admitted(f"run{i}", name, usage, priority=draw(st.sampled_from([0, 5, 10])),
                                 reserved=10 + i))
    for i in range(draw(st.integers(1, 3))):
        wl = pending(f"wait{i}", "q-" + draw(st.sampled_from(cq_names)),
                     {r: draw(st.integers(0, 5)) for r in RES}, count=draw(st.integers(1, 2)),
                     priority=draw(st.sampled_from([0, 5, 10])), created=5000 + i)
        objs.append(_twisted(wl, draw(st.sampled_from(TWISTS))))
    return objs


def _run(path: Path, *args: str) -> dict:
    result = run_cli(*args, "-o", "json")
    assert result.exit_code in (0, 1), (args, result.exit_code, result.stderr)
    return json.loads(result.stdout)


def _never_admissible(path: Path) -> set[str]:
    """Workloads lint says can never be admitted, as namespace/name."""
    doc = _run(path, "lint", str(path))
    out = set()
    for d in doc["diagnostics"]:
        if d["code"] in NEVER_ADMISSIBLE and d["object"].startswith("Workload/"):
            out.add(d["object"].removeprefix("Workload/"))  # Workload/namespace/name
    return out


def _flavors(explained: dict) -> dict:
    return {ps: {r: a["flavor"] for r, a in resources.items()}
            for ps, resources in (explained.get("podSets") or {}).items()}


SETTINGS = settings(max_examples=250, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(clusters())
def test_lint_explain_preempt_and_schedule_agree(objs):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.json"
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": objs}))
        never = _never_admissible(path)
        sched = _run(path, "schedule", "-f", str(path))
        admitted_by_schedule = {a["workload"]: a for a in sched["admitted"]}
        pending_keys = [f"default/{o['metadata']['name']}" for o in objs
                        if o["kind"] == "Workload" and "status" not in o]
        for key in pending_keys:
            explained = _run(path, "explain", key, "-f", str(path))
            preempted = _run(path, "preempt", key, "-f", str(path))
            mode = explained.get("representativeMode")
            assert mode == preempted.get("representativeMode"), (key, mode, preempted)
            victims = {v["workload"] for v in preempted["victims"]}
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
