"""A filter cuts the report, never the computation: on random clusters spread over two
namespaces, the report of ``explain --all``, ``schedule``, ``shares`` and ``simulate`` with ``-n`` (and
``explain --all`` with ``--cluster-queue`` and ``-l``) is exactly the unfiltered report restricted
to the selected workloads, and the two commands agree on which workloads a namespace has pending."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quotactl.model.label_selector import parse_selector
from tests.helpers import run_cli
from tests.kueue.builders import admitted, cohort, cq, flavor, lq, pending
from tests.property_budget import examples

NAMESPACES = ("team-a", "team-b")
SELECTORS = ("tier=gold", "tier!=gold", "tier in (gold,silver)", "!tier", "tier", "app=train,tier notin (bronze)")
LABELS = st.fixed_dictionaries({}, optional={"tier": st.sampled_from(["gold", "silver", "bronze"]),
                                             "app": st.just("train")})


@st.composite
def clusters(draw):
    objs: list[dict] = [flavor("f0"), cohort("co")]
    cq_names = [f"cq{i}" for i in range(draw(st.integers(1, 3)))]
    for name in cq_names:
        objs.append(cq(name, [(["cpu"], [("f0", {"cpu": (draw(st.integers(0, 6)), None)})])],
                       cohort=draw(st.sampled_from(["co", None])), within="LowerPriority", reclaim="Any"))
        objs += [lq("q-" + name, name, ns) for ns in NAMESPACES]
    left = {}
    for i in range(draw(st.integers(0, 4))):
        name, ns = draw(st.sampled_from(cq_names)), draw(st.sampled_from(NAMESPACES))
        use = draw(st.integers(1, 3))
        if left.setdefault(name, 6) >= use:
            left[name] -= use
            objs.append(admitted(f"run{i}", name, {("f0", "cpu"): use}, priority=draw(st.sampled_from([0, 5])),
                                 reserved=10 + i, ns=ns))
    for i in range(draw(st.integers(1, 5))):
        wl = pending(f"wait{i}", "q-" + draw(st.sampled_from(cq_names)), {"cpu": draw(st.integers(1, 4))},
                     priority=draw(st.sampled_from([0, 5, 10])), created=5000 + i,
                     ns=draw(st.sampled_from(NAMESPACES)))
        wl["metadata"]["labels"] = draw(LABELS)
        objs.append(wl)
    return objs


def _json(*args: str) -> dict:
    result = run_cli(*args, "-o", "json")
    assert result.exit_code == 0, (args, result.stderr)
    return json.loads(result.stdout)


def _in(ns: str, key: str) -> bool:
    return key.split("/", 1)[0] == ns


def _without_filter(doc: dict, lists: dict) -> dict:
    """``doc`` with its filtered lists set aside: what must equal the unfiltered document."""
    return {k: v for k, v in doc.items() if k not in lists and k != "filter"}


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(objs=clusters(), ns=st.sampled_from(NAMESPACES), selector=st.sampled_from(SELECTORS),
       picked=st.sets(st.sampled_from(["cq0", "cq1", "cq2"]), min_size=1, max_size=2))
def test_a_filtered_report_is_the_report_restricted(objs, ns, selector, picked):
    labels = {f"{o['metadata']['namespace']}/{o['metadata']['name']}": o["metadata"].get("labels", {})
              for o in objs if o["kind"] == "Workload"}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.json"
        path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": objs}))
        f = ("-f", str(path))

        every = _json("explain", "--all", *f)
        mine = _json("explain", "--all", "-n", ns, *f)
        assert mine["workloads"] == [r for r in every["workloads"] if _in(ns, r["workload"])]
        assert mine["filter"]["total"] == {"workloads": len(every["workloads"])}
        assert mine["filter"]["shown"] == {"workloads": len(mine["workloads"])}

        cqs = sorted(picked)
        chosen = _json("explain", "--all", *f, "-l", selector, *(a for c in cqs for a in ("--cluster-queue", c)))
        match = parse_selector(selector).matches
        assert chosen["workloads"] == [r for r in every["workloads"]
                                       if r["clusterQueue"] in cqs and match(labels[r["workload"]])]

        run = _json("schedule", *f)
        run_mine = _json("schedule", "-n", ns, *f)
        lists = ("admitted", "preempted", "pending")
        for name in lists:
            assert run_mine[name] == [r for r in run[name] if _in(ns, r["workload"])]
        assert run_mine["cycleLog"] == [{**c, "heads": [h for h in c["heads"] if _in(ns, h["workload"])]}
                                        for c in run["cycleLog"]]
        assert run_mine["finalAdmitted"] == {k: v for k, v in run["finalAdmitted"].items() if _in(ns, k)}
        assert _without_filter(run_mine, {*lists, "finalAdmitted", "cycleLog"}) == \
            _without_filter(run, {*lists, "finalAdmitted", "cycleLog"})
        # every workload explain --all lists for the namespace is admitted or left pending by schedule
        ran = {r["workload"] for r in run_mine["admitted"] + run_mine["pending"]}
        assert {r["workload"] for r in mine["workloads"]} <= ran

        shares, shares_mine = _json("shares", *f), _json("shares", "-n", ns, *f)
        assert shares_mine["heads"] == [h for h in shares["heads"] if _in(ns, h["workload"])]
        assert _without_filter(shares_mine, {"heads"}) == _without_filter(shares, {"heads"})

        sim = _json("simulate", "--default-runtime", "60", *f)
        sim_mine = _json("simulate", "--default-runtime", "60", "-n", ns, *f)
        assert sim_mine["workloads"] == [r for r in sim["workloads"] if _in(ns, r["workload"])]
        assert sim_mine["pending"] == [r for r in sim["pending"] if _in(ns, r["workload"])]
        assert _without_filter(sim_mine, {"workloads", "pending"}) == _without_filter(sim, {"workloads", "pending"})
