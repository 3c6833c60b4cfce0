"""Jobs wherever a Workload is accepted: `explain job/ns/name`, the pre-submission check, and job
manifests in the input of schedule / diff / preempt / shares (subprocess, end to end)."""

import json

import jsonschema
import pytest

from tests.helpers import ROOT, run_subprocess

JOBS = ROOT / "fixtures" / "jobs"
SNAPSHOT = JOBS / "snapshot.yaml"
NEW = JOBS / "my-job.yaml"
URGENT = JOBS / "urgent-job.yaml"
BROKEN = JOBS / "broken-job.yaml"
TRAIN_42_WORKLOAD = "ml/job-train-42-3b9f1"
EXPLAIN_SCHEMA = json.loads((ROOT / "schemas" / "output" / "explain.json").read_text())


@pytest.mark.parametrize("output", ["table", "json"])
@pytest.mark.parametrize("query", ["job/ml/train-42", "Job/train-42", "JOB/ml/train-42"])
def test_explain_a_job_is_explaining_its_workload(query, output):
    by_job = run_subprocess("explain", query, "-f", SNAPSHOT, "-o", output)
    by_workload = run_subprocess("explain", TRAIN_42_WORKLOAD, "-f", SNAPSHOT, "-o", output)
    assert by_job.returncode == by_workload.returncode == 0, by_job.stderr
    assert by_job.stdout == by_workload.stdout
    assert TRAIN_42_WORKLOAD in by_job.stdout


def test_preempt_a_job_is_preempting_for_its_workload():
    by_job = run_subprocess("preempt", "job/ml/train-42", "-f", SNAPSHOT, "-o", "json")
    by_workload = run_subprocess("preempt", TRAIN_42_WORKLOAD, "-f", SNAPSHOT, "-o", "json")
    assert by_job.returncode == 0, by_job.stderr
    assert by_job.stdout == by_workload.stdout


def test_an_unknown_job_is_a_usage_error_with_close_names():
    r = run_subprocess("explain", "job/ml/train-4", "-f", SNAPSHOT)
    assert r.returncode == 2
    assert "job/ml/train-42" in r.stderr and "Traceback" not in r.stderr


def test_a_job_without_a_workload_is_explained_as_newly_submitted():
    r = run_subprocess("explain", "job/ml/eval-7", "-f", SNAPSHOT, "-f", NEW, "-o", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["workload"].startswith("ml/job-eval-7-")
    assert doc["representativeMode"] == "Fit"


def _answers(*files, fail=False):
    args = ["explain", "-o", "json", *[a for f in files for a in ("-f", f)]] + (["--fail-if-pending"] if fail else [])
    r = run_subprocess(*args)
    return r, (json.loads(r.stdout) if r.stdout else None)


def test_pre_submission_answers_fit_preempt_and_nofit():
    r, doc = _answers(SNAPSHOT, URGENT, NEW)
    assert r.returncode == 0, r.stderr
    jsonschema.Draft202012Validator(EXPLAIN_SCHEMA).validate(doc)
    rows = {row["job"]: row for row in doc["workloads"]}
    assert list(rows) == ["job/ml/hotfix-eval", "job/ml/eval-7", "job/ml/sweep-9"]
    assert rows["job/ml/eval-7"]["representativeMode"] == "Fit"
    assert rows["job/ml/eval-7"]["flavors"] == {"main": {"cpu": "default-flavor", "memory": "default-flavor"}}
    assert rows["job/ml/hotfix-eval"]["representativeMode"] == "Preempt"
    assert rows["job/ml/hotfix-eval"]["victims"] == ["ml/job-train-41-8c2d7"]
    assert rows["job/ml/sweep-9"]["representativeMode"] == "NoFit"
    assert rows["job/ml/sweep-9"]["reason"] == "ExceedsMaxQuota"
    assert "ml/job-train-42-3b9f1" not in {row["workload"] for row in doc["workloads"]}  # already submitted


def test_pre_submission_text_answers_each_job():
    r = run_subprocess("explain", "-f", SNAPSHOT, "-f", URGENT, "-f", NEW, env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    assert "job/ml/hotfix-eval: admitted after preempting ml/job-train-41-8c2d7" in r.stdout
    assert "job/ml/eval-7: admitted now to ClusterQueue ml" in r.stdout
    assert "job/ml/sweep-9: stays pending (ExceedsMaxQuota)" in r.stdout


@pytest.mark.parametrize(("files", "code"), [((URGENT,), 0), ((NEW,), 1), ((URGENT, NEW), 1)])
def test_fail_if_pending_exits_1_only_when_a_job_would_stay_pending(files, code):
    r, _doc = _answers(SNAPSHOT, *files, fail=True)
    assert r.returncode == code, r.stderr


def test_without_job_manifests_explain_still_asks_which_workload():
    r = run_subprocess("explain", "-f", SNAPSHOT)
    assert r.returncode == 2 and "which workload?" in r.stderr
    r = run_subprocess("explain", TRAIN_42_WORKLOAD, "-f", SNAPSHOT, "--fail-if-pending")
    assert r.returncode == 2


def test_schedule_admits_a_job_manifest_given_in_f():
    r = run_subprocess("schedule", "-f", SNAPSHOT, "-f", NEW, "-o", "json")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert "ml/job-eval-7-" in text and "ml/job-sweep-9-" in text


def test_diff_takes_job_manifests_and_reports_a_skipped_job_once():
    r = run_subprocess("diff", "--base", SNAPSHOT, "--head", SNAPSHOT, "-f", NEW, "-f", BROKEN, "-o", "json")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("job/ml/bad-parallelism") == 1


def test_a_malformed_job_is_reported_with_file_and_line_and_the_rest_works():
    r, doc = _answers(SNAPSHOT, BROKEN)
    assert r.returncode == 0, r.stderr
    assert f"{BROKEN}:2: warning: job/ml/bad-parallelism: Kueue creates no Workload: invalid spec.parallelism" \
        in r.stderr
    assert "Traceback" not in r.stderr
    assert [row["job"] for row in doc["workloads"]] == ["job/ml/small"]
    assert doc["workloads"][0]["representativeMode"] == "Fit"
