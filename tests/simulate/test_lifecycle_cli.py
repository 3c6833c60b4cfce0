"""``quotactl simulate`` with admission checks and WaitForPodsReady, end to end (a real
subprocess): the cases from Kueue's integration tests (tests/simulate/data/lifecycle, copied from
the shared kueue-integration-2 suite), the JSON Schema, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import ROOT, run_subprocess

DATA = Path(__file__).parent / "data" / "lifecycle"
SCHEMA = json.loads((ROOT / "schemas" / "output" / "simulate.json").read_text())
TOL = 1e-6


def _run(path: Path, *extra: str) -> dict:
    res = run_subprocess("simulate", "-f", str(path), "-o", "json", *extra)
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, SCHEMA)
    return doc


def _same(want, got) -> bool:
    return len(want) == len(got) and all(abs(a - b) <= TOL for a, b in zip(sorted(want), sorted(got), strict=True))


@pytest.mark.parametrize("case", sorted(p for p in DATA.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_kueue_integration_case(case):
    spec = json.loads((case / "case.json").read_text())
    doc = _run(case / "state.yaml")
    rows = {r["workload"]: r for r in doc["workloads"]}
    assert doc["converged"] == spec["expect"]["converged"]
    for name, want in spec["expect"]["workloads"].items():
        got = rows[name]
        assert _same(want["admissions"], got["admissions"]), (name, got["admissions"])
        assert _same(want["evictions"], [e["at"] for e in got["evictions"]]), (name, got["evictions"])
        assert got["finished"] == want["finished"]
        if "admittedAt" in want:
            assert _same(want["admittedAt"], got["admittedAt"]), (name, got["admittedAt"])
        if "evictionReasons" in want:
            assert [e["reason"] for e in sorted(got["evictions"], key=lambda e: e["at"])] == want["evictionReasons"]
        if "deactivated" in want:
            assert got["deactivated"] == want["deactivated"]


def test_requeue_count_and_no_preemptor_for_a_timeout():
    doc = _run(DATA / "pr-backoff-limit-deactivates" / "state.yaml")
    prod = next(r for r in doc["workloads"] if r["workload"] == "ns/prod")
    assert prod["requeueCount"] == 2
    assert {e["by"] for e in prod["evictions"]} == {None}


def _edit(tmp_path: Path, case: str, old: str, new: str) -> Path:
    text = (DATA / case / "state.yaml").read_text()
    assert old in text
    out = tmp_path / "state.yaml"
    out.write_text(text.replace(old, new))
    return out


def test_a_check_that_never_answers_leaves_the_workload_reserved(tmp_path):
    path = _edit(tmp_path, "prov-preempted-readmitted-on-flavor-without-check",
                 "quotactl.io/check.ac-prov1: Ready@5s", "quotactl.io/check.ac-prov1: Pending")
    doc = _run(path)
    wl1 = next(r for r in doc["workloads"] if r["workload"] == "ns/wl1")
    assert doc["converged"] is True
    assert wl1["admissions"] == [0, 10] and wl1["admittedAt"] == [10]  # reserved on flavor-1, never Admitted there


def test_retry_requeues_after_requeue_after_seconds_and_rejected_deactivates(tmp_path):
    path = _edit(tmp_path, "prov-preempted-readmitted-on-flavor-without-check",
                 "quotactl.io/check.ac-prov1: Ready@5s", "quotactl.io/check.ac-prov1: Retry@2s+3s; Rejected@1s")
    doc = _run(path)
    wl1 = next(r for r in doc["workloads"] if r["workload"] == "ns/wl1")
    assert [(e["at"], e["reason"]) for e in wl1["evictions"]] == [(2, "AdmissionCheck"), (6, "Deactivated")]
    assert wl1["admissions"] == [0, 5] and wl1["admittedAt"] == [] and wl1["deactivated"] == 6


def test_a_huge_backoff_is_capped(tmp_path):
    path = _edit(tmp_path, "pr-backoff-limit-deactivates", "    backoffBaseSeconds: 1\n    backoffLimitCount: 2",
                 "    backoffBaseSeconds: 99999999999999999999\n    backoffMaxSeconds: 7")
    doc = _run(path, "--until", "100s")
    prod = next(r for r in doc["workloads"] if r["workload"] == "ns/prod")
    assert prod["admissions"][:3] == [0, 17, 34]  # timeout 10s, then the 7 s cap each time


@pytest.mark.parametrize("annotation", ["quotactl.io/check.ac-prov1: Ready@soon",
                                        "quotactl.io/check.ac-prov1: Maybe@1s",
                                        "quotactl.io/check.ac-prov1: Ready@1s+2s"])
def test_a_malformed_check_annotation_is_one_line_with_its_place(tmp_path, annotation):
    path = _edit(tmp_path, "prov-preempted-readmitted-on-flavor-without-check",
                 "quotactl.io/check.ac-prov1: Ready@5s", annotation)
    res = run_subprocess("simulate", "-f", str(path), "-o", "json")
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and f"{path}:" in res.stderr and "Traceback" not in res.stderr
    assert "quotactl.io/check.ac-prov1" in res.stderr


def test_a_malformed_pods_ready_annotation_is_one_line_with_its_place(tmp_path):
    path = _edit(tmp_path, "pr-block-unblocks-when-ready", "quotactl.io/pods-ready-after: 10s",
                 "quotactl.io/pods-ready-after: later")
    res = run_subprocess("simulate", "-f", str(path), "-o", "json")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and f"{path}:" in res.stderr


def test_a_retry_without_requeue_after_reserves_again_at_the_same_instant(tmp_path):
    path = _edit(tmp_path, "prov-preempted-readmitted-on-flavor-without-check",
                 "quotactl.io/check.ac-prov1: Ready@5s", "quotactl.io/check.ac-prov1: Retry@2s; Ready@1s")
    wl1 = next(r for r in _run(path)["workloads"] if r["workload"] == "ns/wl1")
    assert wl1["admissions"] == [0, 2, 10] and wl1["admittedAt"] == [3, 10]
    assert [e["reason"] for e in wl1["evictions"]] == ["AdmissionCheck", "InClusterQueue"]


def test_pods_that_never_get_ready_without_a_limit_end_the_run_once_it_repeats(tmp_path):
    path = _edit(tmp_path, "pr-block-unblocks-when-ready", "quotactl.io/pods-ready-after: 10s",
                 "quotactl.io/pods-ready-after: never")
    doc = _run(path)
    rows = {r["workload"]: r for r in doc["workloads"]}
    assert doc["converged"] is True and doc["stopped"] == "drained"
    prod = rows["ns/prod-wl"]
    assert prod["admissions"][:4] == [0, 46, 93, 142]  # timeout 45 s, then backoff 1, 2, 4 s, ...
    assert {e["reason"] for e in prod["evictions"]} == {"PodsReadyTimeout"} and prod["requeueCount"] >= 12
    assert rows["ns/dev-wl"]["admissions"] == [45]  # admitted when prod-wl's timeout released the wait


@pytest.mark.parametrize("timeout", ["1d", "30"])
def test_a_timeout_go_does_not_parse_is_one_line_with_its_place(tmp_path, timeout):
    # waitForPodsReady.timeout is a metav1.Duration: Go's time.ParseDuration has no days and no bare numbers
    path = _edit(tmp_path, "pr-backoff-limit-deactivates", "  timeout: 10s", f"  timeout: '{timeout}'")
    res = run_subprocess("simulate", "-f", str(path), "-o", "json")
    assert res.returncode == 2 and res.stdout == ""
    error = res.stderr.splitlines()[-1]  # after the schema's warning (KQ004), the one error line
    assert error.startswith(f"quotactl: error: {path}:6:") and "waitForPodsReady.timeout: time:" in error
