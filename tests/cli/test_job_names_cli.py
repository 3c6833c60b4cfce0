"""A WORKLOAD argument as kubectl users type it, through the real CLI: a Job's own name finds the
Workload Kueue created for it (or the one quotactl derives), and ``jobs/``, ``job.batch/``,
``workload/``... spellings work for explain, explain --eta and preempt."""

from __future__ import annotations

import json

import pytest

from tests.helpers import FIXTURES, run_subprocess

SNAPSHOT = str(FIXTURES / "jobs" / "snapshot.yaml")  # Workload ml/job-train-42-3b9f1, owned by Job ml/train-42
NEW_JOBS = str(FIXTURES / "jobs" / "my-job.yaml")  # Jobs ml/eval-7 and ml/sweep-9, no Workload yet
YK = (str(FIXTURES / "yunikorn" / "clean" / "queues.yaml"), str(FIXTURES / "yunikorn" / "clean" / "state.yaml"))
TRAIN_42 = "ml/job-train-42-3b9f1"


def _workload(*args: str) -> str:
    out = run_subprocess(*args, "-o", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["workload"]


@pytest.mark.parametrize("name", ["ml/train-42", "train-42", "job/ml/train-42", "jobs/ml/train-42",
                                  "job.batch/ml/train-42", "jobs.batch/train-42", "workload/ml/job-train-42-3b9f1",
                                  "workloads/job-train-42-3b9f1", "workload.kueue.x-k8s.io/ml/job-train-42-3b9f1"])
def test_explain_finds_the_workload_kueue_created_for_the_job(name):
    assert _workload("explain", name, "-f", SNAPSHOT) == TRAIN_42


@pytest.mark.parametrize("name", ["ml/train-42", "jobs.batch/ml/train-42"])
def test_preempt_takes_the_same_names(name):
    assert _workload("preempt", name, "-f", SNAPSHOT) == TRAIN_42


def test_namespace_flag_completes_a_typed_name():
    assert _workload("explain", "job/train-42", "-n", "ml", "-f", SNAPSHOT) == TRAIN_42


def test_a_job_without_its_workload_in_the_input_is_derived():
    derived = _workload("explain", "ml/eval-7", "-f", SNAPSHOT, "-f", NEW_JOBS)
    assert derived.startswith("ml/job-eval-7-")
    assert _workload("explain", "jobs.batch/eval-7", "--eta", "-f", SNAPSHOT, "-f", NEW_JOBS) == derived


def test_unknown_name_suggests_workloads_and_jobs():
    out = run_subprocess("explain", "ml/train-43", "-f", SNAPSHOT)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("quotactl: error: no workload or job 'ml/train-43' in the input; did you mean ")
    assert "ml/job-train-42-3b9f1" in out.stderr and "job/ml/train-42" in out.stderr


def test_a_name_of_a_workload_and_of_another_workloads_job_is_the_workload(tmp_path):
    # job-train-41's Workload renamed train-42: "ml/train-42" is now that Workload and Job train-42
    text = (FIXTURES / "jobs" / "snapshot.yaml").read_text().replace("name: job-train-41-8c2d7", "name: train-42")
    (tmp_path / "s.yaml").write_text(text)
    out = run_subprocess("explain", "ml/train-42", "-f", str(tmp_path / "s.yaml"), "-o", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["workload"] == "ml/train-42"
    assert "quotactl: note: 'ml/train-42' is Workload ml/train-42 and also job/ml/train-42" in out.stderr
    assert _workload("explain", "job/ml/train-42", "-f", str(tmp_path / "s.yaml")) == TRAIN_42


def test_yunikorn_pod_spellings():
    plain = run_subprocess("explain", "analytics/report-0", "-f", YK[0], "-f", YK[1], "-o", "json")
    for typed in ("pod/analytics/report-0", "pods/analytics/report-0"):
        out = run_subprocess("explain", typed, "-f", YK[0], "-f", YK[1], "-o", "json")
        assert (out.returncode, out.stdout, out.stderr) == (plain.returncode, plain.stdout, plain.stderr)
