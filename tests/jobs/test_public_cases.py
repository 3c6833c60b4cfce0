"""The public cases from Kueue's unit tests (tests/jobs/cases), through `quotactl workload -o json`."""

import json
from pathlib import Path

import pytest

from quotactl.model.podspec import effective_pod_requests
from quotactl.model.quantity import Quantity
from tests.helpers import run_cli

CASES = sorted(p.parent for p in (Path(__file__).parent / "cases").glob("*/case.json"))


def owner_of(workload: dict) -> str:
    return workload["metadata"]["annotations"]["quotactl.io/owner"]


def check_workload(want: dict, got: dict) -> None:
    spec = got["spec"]
    assert spec.get("queueName") == want["queueName"]
    assert (spec.get("priorityClassRef") or {}).get("name") == want["priorityClass"]
    assert spec["priority"] == want["priority"]
    assert [(p["name"], p["count"], p.get("minCount")) for p in spec["podSets"]] == [
        (p["name"], p["count"], p["minCount"]) for p in want["podSets"]]
    for w, g in zip(want["podSets"], spec["podSets"], strict=True):
        if "requests" in w:
            got_requests = {k: v for k, v in effective_pod_requests(g["template"]["spec"]).items() if v.nanos}
            assert got_requests == {k: Quantity.parse(v) for k, v in w["requests"].items()}


def test_all_cases_present():
    assert len(CASES) == 13


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_public_case(case: Path):
    expect = json.loads((case / "case.json").read_text())["expect"]
    result = run_cli("workload", "-f", case / "input.yaml", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert sorted(owner_of(w) for w in doc["items"]) == sorted(w["owner"] for w in expect["workloads"])
    for want in expect["workloads"]:
        candidates = [w for w in doc["items"] if owner_of(w) == want["owner"]]
        check_workload(want, candidates[0])
    assert {s["object"] for s in doc["skipped"]} == set(expect["skipped"])
