"""``quotactl simulate`` end to end (a real subprocess): the acceptance cases, the JSON Schema,
the same bytes on a second run, and bad input as one line with file:line and exit 2."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from tests.helpers import CASES, ROOT, run_subprocess

SUITE = CASES / "simulate"
SCHEMA = json.loads((ROOT / "schemas" / "output" / "simulate.json").read_text())
FLAGS = (("cycleInterval", "--cycle-interval"), ("start", "--start"), ("until", "--until"),
         ("defaultRuntime", "--default-runtime"))
TOL = 1e-6


def _args(case) -> list[str]:
    spec = json.loads((case / "case.json").read_text())
    args = ["simulate", "-f", str(case / "state.yaml"), "-o", "json"]
    for key, flag in FLAGS:
        if spec["options"].get(key) is not None:
            args += [flag, str(spec["options"][key])]
    return args


def _times(xs) -> list[float]:
    return sorted(float(x["at"] if isinstance(x, dict) else x) for x in xs)


def _same(want, got) -> bool:
    return len(want) == len(got) and all(abs(a - b) <= TOL for a, b in zip(sorted(want), got, strict=True))


@pytest.mark.parametrize("case", sorted(p for p in SUITE.iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_acceptance_case(case):
    spec = json.loads((case / "case.json").read_text())
    p = run_subprocess(*_args(case))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    jsonschema.validate(doc, SCHEMA)
    expect = spec["expect"]
    if "converged" in expect:
        assert doc["converged"] == expect["converged"]
    rows = {r["workload"]: r for r in doc["workloads"]}
    for name, want in expect["workloads"].items():
        got = rows[name]
        if "admissions" in want:
            assert _same(want["admissions"], _times(got["admissions"])), (name, got["admissions"])
        if "evictions" in want:
            assert _same(want["evictions"], _times(got["evictions"])), (name, got["evictions"])
        if "finished" in want:
            if want["finished"] is None:
                assert got["finished"] is None, name
            else:
                assert got["finished"] is not None and abs(got["finished"] - want["finished"]) <= TOL, name


def test_same_input_same_bytes_and_plain_summary():
    case = SUITE / "reclaim-any-borrower-requeued-rerun"
    a, b = run_subprocess(*_args(case)), run_subprocess(*_args(case))
    assert a.returncode == 0 and a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert doc["clusterQueues"]["team-b"]["preemptionsByReason"] == {"InCohortReclamation": 1}
    assert doc["clusterQueues"]["team-b"]["lostWork"] == 20
    plain = run_subprocess("simulate", "-f", str(case / "state.yaml"), "-o", "plain")
    assert plain.returncode == 0
    assert "team-b: admitted 3, finished 2, preemptions 1 (InCohortReclamation 1), lost work 20s" in plain.stdout


def test_bad_runtime_annotation_is_one_line_with_file_and_line(tmp_path):
    text = (SUITE / "fifo-single-cq-fixed-arrivals" / "state.yaml").read_text()
    bad = tmp_path / "state.yaml"
    bad.write_text(text.replace("quotactl.io/runtime: 50s", "quotactl.io/runtime: fifty seconds"))
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if "fifty seconds" in t)
    p = run_subprocess("simulate", "-f", str(bad), "-o", "json")
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert re.search(rf"state\.yaml:{line}:\d+: Workload team-a/w3: annotation quotactl.io/runtime", lines[0])


@pytest.mark.parametrize("args, words", [
    (("--until", "soon"), "--until"),
    (("--until", "2026-13-45T99:00:00Z"), "--until"),
    (("--start", "yesterday"), "--start"),
    (("--until", "2026-03-01T00:00:00Z"), "before the start"),
    (("--default-runtime", "-5s"), "--default-runtime"),
    (("--cycle-interval", "10s", "--cadence", "kueue-harness"), "not both"),
    (("--cadence", "nightly"), "unknown cadence"),
    (("--admission-cost", "1s"), "needs a cycle interval"),
])
def test_bad_options_exit_2_with_one_line(args, words):
    p = run_subprocess("simulate", "-f", str(SUITE / "fifo-single-cq-fixed-arrivals" / "state.yaml"), *args)
    assert p.returncode == 2 and words in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_no_input_is_a_usage_error():
    p = run_subprocess("simulate")
    assert p.returncode == 2 and "--generator" in p.stderr


def test_the_report_names_the_cadence_limits_in_force():
    """With --cadence kueue-harness the JSON (schema-valid) and the summary say which harness
    limits the run had; the contract's modes have none."""
    state = str(SUITE / "fifo-single-cq-fixed-arrivals" / "state.yaml")
    plain = json.loads(run_subprocess("simulate", "-f", state, "-o", "json").stdout)
    assert plain["limits"] == {}
    p = run_subprocess("simulate", "-f", state, "-o", "json", "--cadence", "kueue-harness")
    doc = json.loads(p.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc["limits"] == {"writeRate": 50, "writeBurst": 100, "requeueBatch": 1, "createRate": 1000,
                             "createBurst": 2000}
    text = run_subprocess("simulate", "-f", state, "--cadence", "kueue-harness", "--no-plot").stdout
    assert "writes 50/s (burst 100), requeue 1s after a completion, creates 1000/s (burst 2000)" in text
