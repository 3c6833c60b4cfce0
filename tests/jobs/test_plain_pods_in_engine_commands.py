"""A plain Pod with Kueue's queue-name label is a job like the others in engine commands: the loader
classifies it for Kueue's pod integration (not as a YuniKorn pod), and explain derives its Workload."""

from __future__ import annotations

import json

from quotactl.load.objects import Dialect, classify
from tests.helpers import FIXTURES, ROOT, run_cli

POD = ROOT / "tests" / "jobs" / "data" / "plain-pod.yaml"
SNAPSHOT = FIXTURES / "jobs" / "snapshot.yaml"


def test_a_pod_with_kueue_labels_is_a_kueue_job_and_others_stay_yunikorn_pods():
    labelled = {"metadata": {"labels": {"kueue.x-k8s.io/queue-name": "main"}}}
    grouped = {"metadata": {"labels": {"kueue.x-k8s.io/pod-group-name": "g"}}}
    assert classify("v1", "Pod", labelled) == Dialect.JOB
    assert classify("v1", "Pod", grouped) == Dialect.JOB
    assert classify("v1", "Pod", {"metadata": {"labels": {"queue": "root.a"}}}) == Dialect.YUNIKORN


def test_explain_answers_for_a_plain_pod_before_and_by_its_name():
    before = run_cli("explain", "-f", str(SNAPSHOT), "-f", str(POD), "-o", "json")
    assert before.exit_code == 0, before.stderr
    rows = json.loads(before.stdout)["workloads"]
    assert [r.get("job") for r in rows] == ["pod/ml/notebook"]
    by_name = run_cli("explain", "pod/ml/notebook", "-f", str(SNAPSHOT), "-f", str(POD), "-o", "json")
    assert by_name.exit_code == 0, by_name.stderr
    assert json.loads(by_name.stdout)["representativeMode"] == rows[0]["representativeMode"]
