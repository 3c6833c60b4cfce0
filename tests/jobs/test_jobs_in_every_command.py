"""Jobs are accepted everywhere a Workload is: a plain Pod with Kueue's queue-name label is a job in engine
commands (not a YuniKorn pod), and lint reports a malformed job with its position."""

from __future__ import annotations

import json

from quotactl.load.objects import Dialect, classify
from tests.helpers import FIXTURES, ROOT, run_cli

POD = ROOT / "tests" / "jobs" / "data" / "plain-pod.yaml"
SNAPSHOT = FIXTURES / "jobs" / "snapshot.yaml"


def test_a_pod_with_kueue_labels_is_a_kueue_job_and_others_belong_to_no_scheduler():
    labelled = {"metadata": {"labels": {"kueue.x-k8s.io/queue-name": "main"}}}
    grouped = {"metadata": {"labels": {"kueue.x-k8s.io/pod-group-name": "g"}}}
    assert classify("v1", "Pod", labelled) == Dialect.JOB
    assert classify("v1", "Pod", grouped) == Dialect.JOB
    # YuniKorn's and Kueue's (TAS) alike: they go with the configuration in the input
    assert classify("v1", "Pod", {"metadata": {"labels": {"queue": "root.a"}}}) == Dialect.NEUTRAL
    assert classify("v1", "Node", {"metadata": {"name": "n"}}) == Dialect.NEUTRAL
    assert classify("v1", "ConfigMap", {"metadata": {"name": "yunikorn-configs"}}) == Dialect.YUNIKORN


def test_explain_answers_for_a_plain_pod_before_and_by_its_name():
    before = run_cli("explain", "-f", str(SNAPSHOT), "-f", str(POD), "-o", "json")
    assert before.exit_code == 0, before.stderr
    rows = json.loads(before.stdout)["workloads"]
    assert [r.get("job") for r in rows] == ["pod/ml/notebook"]
    by_name = run_cli("explain", "pod/ml/notebook", "-f", str(SNAPSHOT), "-f", str(POD), "-o", "json")
    assert by_name.exit_code == 0, by_name.stderr
    assert json.loads(by_name.stdout)["representativeMode"] == rows[0]["representativeMode"]


def test_lint_reports_a_malformed_job_with_its_position():
    # The derivation's diagnostics (JB001) are lint findings too, so CI fails on a broken manifest.
    result = run_cli("lint", str(FIXTURES / "jobs" / "broken-job.yaml"), "-o", "json")
    assert result.exit_code == 1
    found = [(d["code"], d["line"], d["field"]) for d in json.loads(result.stdout)["diagnostics"]]
    assert ("JB001", 11, "spec.parallelism") in found
