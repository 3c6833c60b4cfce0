"""The ``schedule`` check of tests/acceptance/cases/FORMAT.md through the real CLI (Typer's runner),
with the acceptance scorer's matching rule (one-cycle suites and fixpoint suites)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acceptance.accept import inputs, spec
from tests.helpers import run_cli


def schedule_args(case: Path) -> list[str]:
    s = spec(case)
    args = ["schedule"]
    for f in inputs(case):
        args += ["-f", f]
    opts = s.get("options") or {}
    if opts.get("fairSharing"):
        args.append("--fair-sharing")
    cycles = s["expect"].get("cycles")
    if cycles != "fixpoint":
        args += ["--cycles", str(cycles or 1)]
    return args + ["--output", "json"]


def _initially_admitted(case: Path) -> dict:
    from quotactl.load.objects import load
    from quotactl.model.kueue import build_cluster

    out = {}
    cluster = build_cluster(load([str(case / "state.yaml")]).objects)
    for key, wl in cluster.workloads.items():
        adm = wl.admission
        if adm is None:
            continue
        fl = {psa.name or "main": dict(psa.flavors) for psa in adm.pod_set_assignments}
        out[key] = {"clusterQueue": adm.cluster_queue, "flavors": fl}
    return out


def _compare(want: dict, got: dict, what: str) -> str | None:
    if set(got) != set(want):
        return f"{what} want {sorted(want)} got {sorted(got)}"
    for w, a in want.items():
        if a.get("clusterQueue") and got[w].get("clusterQueue") != a["clusterQueue"]:
            return f"{w} cq want {a['clusterQueue']} got {got[w].get('clusterQueue')}"
        for ps, rs in (a.get("flavors") or {}).items():
            for r, f in rs.items():
                hf = ((got[w].get("flavors") or {}).get(ps) or {}).get(r)
                if hf != f:
                    return f"{w} {ps}/{r} flavor want {f} got {hf}"
    return None


def check_schedule(case: Path) -> str | None:
    """None when the case passes, else why not."""
    s = spec(case)
    exp = s["expect"]
    result = run_cli(*schedule_args(case))
    if result.exit_code != 0:
        return f"exit {result.exit_code}: {result.stderr.strip()[-300:]}"
    got = json.loads(result.stdout)
    if exp.get("cycles") == "fixpoint":
        state = _initially_admitted(case)
        events = [(a["cycle"], 0, "admit", a) for a in got["admitted"]]
        events += [(p["cycle"], 1, "preempt", p) for p in got["preempted"]]
        ever = set()
        for _c, _o, kind, e in sorted(events, key=lambda t: (t[0], t[1])):
            if kind == "admit":
                state[e["workload"]] = {"clusterQueue": e["clusterQueue"], "flavors": e["flavors"]}
            else:
                ever.add(e["workload"])
                state.pop(e["workload"], None)
        why = _compare(exp.get("finalAdmitted") or {}, state, "final admitted")
        if why:
            return why
        if set(exp.get("everPreempted") or []) != ever:
            return f"preempted want {sorted(exp.get('everPreempted') or [])} got {sorted(ever)}"
        return None
    adm = {a["workload"]: a for a in got["admitted"]}
    why = _compare(exp.get("admitted") or {}, adm, "admitted")
    if why:
        return why
    pre = {p["workload"] for p in got["preempted"]}
    if set(exp.get("preempted") or []) != pre:
        return f"preempted want {sorted(exp.get('preempted') or [])} got {sorted(pre)}"
    return None
