"""jobs.resolve: which Workload stands for which job, and when a new one is submitted."""

import pytest

from quotactl.jobs.resolve import find_job, find_named, owner_labels, resolve_jobs, typed_name
from quotactl.load.objects import load
from quotactl.model.kueue_input import KueueInput
from tests.helpers import ROOT

JOBS = ROOT / "fixtures" / "jobs"


def _resolved(*names):
    return resolve_jobs(KueueInput(load([str(JOBS / n) for n in names]).objects))


def test_input_without_jobs_is_unchanged():
    objects = load([str(ROOT / "fixtures" / "cluster")]).objects
    resolved = resolve_jobs(KueueInput(objects))
    assert resolved.objects == objects and resolved.submitted == ()


def test_a_job_with_its_workload_in_the_input_adds_nothing():
    resolved = _resolved("snapshot.yaml")
    assert resolved.submitted == ()
    assert resolved.workload_of["job/ml/train-42"] == "ml/job-train-42-3b9f1"
    assert resolved.workload_of["job/ml/train-41"] == "ml/job-train-41-8c2d7"  # its Job is not in the input


def test_a_new_job_is_created_at_the_snapshots_latest_time():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    assert resolved.submitted == ("job/ml/eval-7", "job/ml/sweep-9")
    added = resolved.objects[-2:]
    assert [w.kind for w in added] == ["Workload", "Workload"]
    # the latest timestamp of the snapshot: train-42's QuotaReserved transition
    assert {w.metadata["creationTimestamp"] for w in added} == {"2026-11-25T09:00:02Z"}


def test_a_new_job_keeps_its_own_creation_time(tmp_path):
    job = (JOBS / "my-job.yaml").read_text().replace("  name: eval-7\n",
                                                      "  name: eval-7\n  creationTimestamp: \"2026-11-25T10:00:00Z\"\n")
    (tmp_path / "job.yaml").write_text(job)
    resolved = resolve_jobs(KueueInput(load([str(JOBS / "snapshot.yaml"), str(tmp_path / "job.yaml")]).objects))
    created = {w.name: w.metadata["creationTimestamp"] for w in resolved.objects if w.kind == "Workload"}
    assert created[resolved.workload_of["job/ml/eval-7"].split("/")[1]] == "2026-11-25T10:00:00Z"


def test_find_job_by_kind_namespace_name_or_unique_name():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    assert find_job(resolved, "job/ml/eval-7").workload == resolved.workload_of["job/ml/eval-7"]
    assert find_job(resolved, "Job/eval-7").workload == resolved.workload_of["job/ml/eval-7"]
    assert not find_job(resolved, "ml/eval-7").is_job  # a namespace/name is a Workload's name
    missing = find_job(resolved, "job/ml/eval-8")
    assert missing.workload is None and "job/ml/eval-7" in missing.suggestions


@pytest.mark.parametrize(("typed", "kind", "rest"), [
    ("job/ml/x", "job", "ml/x"), ("jobs/x", "job", "x"), ("job.batch/ml/x", "job", "ml/x"),
    ("jobs.batch/x", "job", "x"), ("jobs.v1.batch/x", "job", "x"), ("Job/x", "job", "x"),
    ("workload/ml/x", "workload", "ml/x"), ("workloads/x", "workload", "x"), ("wl/x", "workload", "x"),
    ("workload.kueue.x-k8s.io/ml/x", "workload", "ml/x"), ("workloads.kueue.x-k8s.io/x", "workload", "x"),
    ("jobsets.jobset.x-k8s.io/ml/x", "jobset", "ml/x"), ("pytorchjobs.kubeflow.org/x", "pytorchjob", "x"),
    ("pods/ml/p", "pod", "ml/p"), ("po/p", "pod", "p"), ("deploy/web/d", "deployment", "web/d"),
])
def test_typed_names_as_kubectl_spells_them(typed, kind, rest):
    assert typed_name(typed) == (kind, rest)


@pytest.mark.parametrize("untyped", ["ml/x", "x", "job.apps/x", "jobs.example.com/x", "pod.batch/x", "team/a/b"])
def test_other_names_are_untyped(untyped):
    assert typed_name(untyped) == (None, untyped)


def test_find_named_a_job_by_its_own_name():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    for query in ("ml/train-42", "train-42", "jobs.batch/ml/train-42", "job/train-42"):
        found = find_named(resolved, query)
        assert (found.workload, found.job) == ("ml/job-train-42-3b9f1", "job/ml/train-42"), query
    derived = find_named(resolved, "ml/eval-7")  # no Workload in the input: the derived one
    assert derived.workload == resolved.workload_of["job/ml/eval-7"]
    assert find_named(resolved, "workload/ml/job-train-42-3b9f1").workload == "ml/job-train-42-3b9f1"
    assert find_named(resolved, "workload/ml/train-42").workload is None  # workload/ never means a job


def test_find_named_prefers_the_workload_and_says_so(tmp_path):
    # a Workload named like another Workload's Job: kubectl's own resource for the name wins
    other = (JOBS / "snapshot.yaml").read_text().replace("name: job-train-41-8c2d7", "name: train-42")
    (tmp_path / "s.yaml").write_text(other)
    resolved = resolve_jobs(KueueInput(load([str(tmp_path / "s.yaml")]).objects))
    found = find_named(resolved, "ml/train-42")
    assert found.workload == "ml/train-42" and found.job is None
    assert "job/ml/train-42" in found.note and "using the Workload" in found.note
    assert find_named(resolved, "job/ml/train-42").workload == "ml/job-train-42-3b9f1"


def test_find_named_unknown_suggests_workloads_and_jobs():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    found = find_named(resolved, "ml/train-43")
    assert found.workload is None
    assert "job/ml/train-42" in found.suggestions and "job/ml/train-41" in found.suggestions
    assert find_named(resolved, "job-train-42-3b9f").suggestions[0] == "ml/job-train-42-3b9f1"


def test_owner_labels_are_the_jobs():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    labels = owner_labels(resolved)
    assert labels["ml/job-train-42-3b9f1"]["kueue.x-k8s.io/queue-name"] == "main"
    assert "ml/job-train-41-8c2d7" not in labels  # its Job is not in the input
