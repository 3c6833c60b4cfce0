"""Topology assignments carried by ``preempt``, ``diff`` and ``simulate`` (issue 27, point 3), through
the CLI in a subprocess, on the small TAS fixtures in fixtures/tas (built from Kueue's
TestScheduleForTAS states, tests/acceptance/cases/kueue-tas); each JSON document is validated
against its schema."""

from __future__ import annotations

import json

import jsonschema

from tests.helpers import FIXTURES, ROOT, run_subprocess

TAS = FIXTURES / "tas"
HOST = ["kubernetes.io/hostname"]


def _schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / "output" / f"{name}.json").read_text()))


def _json(schema: str, *args) -> dict:
    result = run_subprocess(*args, "-o", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    _schema(schema).validate(doc)
    return doc


def _on(*hosts_and_counts) -> dict:
    return {"levels": HOST, "domains": [{"values": [h], "count": c} for h, c in hosts_and_counts]}


def test_preempt_places_the_preemptor_where_its_victim_was():
    """low (priority 0) holds x1, mid (50) holds x2; high (100) fits quota but no host: Kueue's
    TAS-aware search evicts low alone, and high lands on the host low frees."""
    got = _json("preempt", "preempt", "default/high", "-f", TAS / "preempt.yaml")
    assert [v["workload"] for v in got["victims"]] == ["default/low"]
    assert got["victims"][0]["topologyAssignments"] == {"one": _on(("x1", 1))}
    assert got["topology"] == {"one": {"flavor": "tas-default", "topologyName": "tas-single-level",
                                       "mode": "Preempt", "assignment": _on(("x1", 1)), "reason": None}}


def test_preempt_of_an_admitted_workload_shows_what_it_holds():
    got = _json("preempt", "preempt", "default/mid", "-f", TAS / "preempt.yaml")
    assert got["victims"] == []
    assert got["topology"]["one"]["assignment"] == _on(("x2", 1))
    assert got["topology"]["one"]["mode"] == "Fit"


def test_preempt_text_has_a_topology_section():
    result = run_subprocess("preempt", "default/high", "-f", TAS / "preempt.yaml", "-o", "plain")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Topology (once the victims are gone)\n" in out
    assert "  one: Preempt on flavor tas-default, topology tas-single-level\n" in out
    assert "    1 pod(s) in 1 domain(s) of kubernetes.io/hostname: x1 ×1\n" in out
    assert "  default/low frees: one: 1 pod(s) in 1 domain(s) of kubernetes.io/hostname: x1 ×1\n" in out


def _diff(*extra) -> list[str]:
    return ["diff", "--base", TAS / "diff-base.yaml", "--head", TAS / "diff-head.yaml", *extra]


def test_diff_reports_a_changed_placement_and_a_new_topology_failure():
    got = _json("diff", *_diff())
    by = {w["workload"]: w for w in got["workloads"]}
    mover = by["default/mover"]
    assert mover["change"] == "moved" and mover["before"] == mover["after"]
    assert mover["detail"] == "topology main: x1 ×1 -> x2 ×1"
    assert (mover["topologyBefore"], mover["topologyAfter"]) == ({"main": _on(("x1", 1))}, {"main": _on(("x2", 1))})
    big = by["default/big"]
    assert big["change"] == "losesAdmission"
    assert big["detail"] == ("couldn't assign flavors to pod set main: topology \"hosts\" allows to fit only 1 out "
                             "of 2 pod(s)")
    assert (big["topologyBefore"], big["topologyAfter"]) == ({"main": _on(("x3", 2))}, None)
    assert got["base"]["finalAdmitted"]["default/big"]["topologyAssignments"] == {"main": _on(("x3", 2))}
    assert "default/big" not in got["head"]["finalAdmitted"]
    assert got["head"]["finalAdmitted"]["default/mover"]["topologyAssignments"] == {"main": _on(("x2", 1))}
    assert got["summary"]["moved"] == 1 and got["summary"]["losesAdmission"] == 1


def test_diff_text_says_where_a_workload_moved():
    result = run_subprocess(*_diff("-o", "plain"))
    assert result.returncode == 0, result.stderr
    assert ("  moved                default/mover: admitted in mover (main: cpu=tas-mover) -> admitted in mover "
            "(main: cpu=tas-mover) [topology main: x1 ×1 -> x2 ×1]\n") in result.stdout
    assert "pending: TopologyPlacementFailed [couldn't assign flavors to pod set main: topology" in result.stdout


def test_diff_of_a_side_with_itself_reports_no_topology_change():
    got = _json("diff", "diff", "--base", TAS / "diff-base.yaml", "--head", TAS / "diff-base.yaml")
    assert got["workloads"] == []


def test_simulate_records_where_each_admission_landed():
    """first runs on x1 for 60s; second gets x1 when it finishes; plain's flavor has no topology."""
    got = _json("simulate", "simulate", "-f", TAS / "simulate.yaml")
    rows = {w["workload"]: w for w in got["workloads"]}
    assert rows["default/first"]["admissions"] == [0]
    assert rows["default/first"]["topologyAssignments"] == [{"main": _on(("x1", 1))}]
    assert rows["default/second"]["admissions"] == [60]
    assert rows["default/second"]["topologyAssignments"] == [{"main": _on(("x1", 1))}]
    assert "topologyAssignments" not in rows["default/plain"]
