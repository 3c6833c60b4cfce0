"""kueue-tas through the real CLI in a subprocess: ``explain -o json`` for the tas-assign cases
(Kueue's TestFindTopologyAssignments), ``schedule -o json`` for the tas-schedule cases (Kueue's
TestScheduleForTAS); each output also validates against its schema.  The matching rules are those
of tests/acceptance/cases/kueue-tas/README.md: levels exact, domains as a multiset."""

from __future__ import annotations

import json

import jsonschema
import pytest

from tests.acceptance.accept import cases, spec
from tests.helpers import ROOT, run_subprocess

TAS = cases("kueue-tas")
SCHEMAS = {kind: jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / "output" / f"{kind}.json").read_text()))
           for kind in ("explain", "schedule")}


def _run(kind: str, *args: str) -> dict:
    result = run_subprocess(kind, *args, "-o", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    SCHEMAS[kind].validate(doc)
    return doc


def _norm(ta):
    if ta is None:
        return None
    return tuple(ta["levels"]), sorted((tuple(d["values"]), d["count"]) for d in ta["domains"])


def _strings(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def check_assign(case) -> None:
    s = spec(case)
    got = _run("explain", s["workload"], "-f", str(case / "state.yaml"))
    exp = s["expect"]
    assert got["representativeMode"] == exp["representativeMode"]
    if exp.get("reasonAnyOf"):
        texts = _strings(got)
        assert any(r in t for r in exp["reasonAnyOf"] for t in texts), exp["reasonAnyOf"]
        return
    for ps, want in exp["podSets"].items():
        have = got["topology"][ps]
        if want.get("flavor"):
            assert have["flavor"] == want["flavor"]
        assert _norm(have["assignment"]) == _norm(want["topologyAssignment"])


def check_schedule(case) -> None:
    exp = spec(case)["expect"]
    got = _run("schedule", "-f", str(case / "state.yaml"), "--cycles", str(exp.get("cycles", 1)))
    admitted = {a["workload"]: a for a in got["admitted"]}
    assert set(admitted) == set(exp.get("admitted") or {})
    for name, want in (exp.get("admitted") or {}).items():
        have = admitted[name]
        assert have["clusterQueue"] == want["clusterQueue"]
        for ps, flavors in (want.get("flavors") or {}).items():
            assert have["flavors"][ps] == flavors
        for ps, ta in (want.get("topologyAssignments") or {}).items():
            assert _norm(have["topologyAssignments"][ps]) == _norm(ta)
    assert {p["workload"] for p in got["pending"]} == {p if isinstance(p, str) else p["workload"]
                                                       for p in exp.get("pending") or []}


@pytest.mark.parametrize("case", TAS, ids=lambda c: c.name)
def test_kueue_tas_case(case):
    kind = spec(case)["kind"]
    (check_assign if kind == "tas-assign" else check_schedule)(case)
