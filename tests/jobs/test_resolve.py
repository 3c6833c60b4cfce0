"""jobs.resolve: which Workload stands for which job, and when a new one is submitted."""

from quotactl.jobs.resolve import find_job, resolve_jobs
from quotactl.load.objects import load
from tests.helpers import ROOT

JOBS = ROOT / "fixtures" / "jobs"


def _resolved(*names):
    return resolve_jobs(load([str(JOBS / n) for n in names]).objects)


def test_input_without_jobs_is_unchanged():
    objects = load([str(ROOT / "fixtures" / "cluster")]).objects
    resolved = resolve_jobs(objects)
    assert resolved.objects is objects and resolved.submitted == ()


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
    resolved = resolve_jobs(load([str(JOBS / "snapshot.yaml"), str(tmp_path / "job.yaml")]).objects)
    created = {w.name: w.metadata["creationTimestamp"] for w in resolved.objects if w.kind == "Workload"}
    assert created[resolved.workload_of["job/ml/eval-7"].split("/")[1]] == "2026-11-25T10:00:00Z"


def test_find_job_by_kind_namespace_name_or_unique_name():
    resolved = _resolved("snapshot.yaml", "my-job.yaml")
    assert find_job(resolved, "job/ml/eval-7").workload == resolved.workload_of["job/ml/eval-7"]
    assert find_job(resolved, "Job/eval-7").workload == resolved.workload_of["job/ml/eval-7"]
    assert not find_job(resolved, "ml/eval-7").is_job  # a namespace/name is a Workload's name
    missing = find_job(resolved, "job/ml/eval-8")
    assert missing.workload is None and "job/ml/eval-7" in missing.suggestions
