"""-n/--namespace, -A, --cluster-queue and -l/--selector through the real CLI: they cut what
explain --all, schedule and simulate report, on files as on a cluster, and say so, so that a
filter never reads as an empty cluster."""

from __future__ import annotations

import json

import jsonschema
import pytest

from tests.helpers import FIXTURES, ROOT, run_subprocess

CLUSTER = str(FIXTURES / "cluster")
SNAPSHOT = str(FIXTURES / "jobs" / "snapshot.yaml")


def _schema(name: str) -> dict:
    return json.loads((ROOT / "schemas" / "output" / f"{name}.json").read_text())


# Two Jobs of namespace ml queued to LocalQueue main (fixtures/jobs/snapshot.yaml), labelled only on
# the Job: Kueue's Workload does not carry the labels, -l still finds them through the job.
LABELLED_JOBS = """\
apiVersion: batch/v1
kind: Job
metadata: {name: gold-1, namespace: ml, labels: {kueue.x-k8s.io/queue-name: main, tier: gold}}
spec:
  suspend: true
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: bronze-1, namespace: ml, labels: {kueue.x-k8s.io/queue-name: main, tier: bronze}}
spec:
  suspend: true
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]}}
"""


def test_explain_all_namespace_says_what_it_shows():
    out = run_subprocess("explain", "--all", "-f", CLUSTER, "-n", "team-a")
    assert out.returncode == 0, out.stderr
    assert "team-a/sweep-17" in out.stdout and "team-b/" not in out.stdout and "ml/" not in out.stdout
    assert out.stdout.rstrip().endswith("1 of 4 pending workloads shown (namespace team-a): 1 fits now")


def test_explain_all_namespace_with_nothing_is_not_an_empty_cluster():
    out = run_subprocess("explain", "--all", "-f", CLUSTER, "-n", "team-z")
    assert out.returncode == 0
    assert "0 of 4 pending workloads shown (namespace team-z)" in out.stdout
    assert "no pending workloads" not in out.stdout
    assert "no workload of the input is in namespace 'team-z' (workloads are in: ml, team-a, team-b, web)" in out.stderr


def test_explain_all_json_carries_the_filter_and_validates():
    out = run_subprocess("explain", "--all", "-f", CLUSTER, "-n", "ml", "--cluster-queue", "team-ml",
                         "--cluster-queue", "team-a", "-l", "!tier", "-o", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, _schema("explain"))
    assert [r["workload"] for r in doc["workloads"]] == ["ml/eval-llm"]
    assert doc["filter"] == {"namespace": "ml", "clusterQueues": ["team-ml", "team-a"], "selector": "!tier",
                             "shown": {"workloads": 1}, "total": {"workloads": 4}}
    assert doc["summary"]["pending"] == 1


def test_unfiltered_json_has_no_filter_and_all_namespaces_changes_nothing():
    plain = run_subprocess("explain", "--all", "-f", CLUSTER, "-o", "json")
    every = run_subprocess("explain", "--all", "-f", CLUSTER, "-A", "-o", "json")
    assert plain.returncode == every.returncode == 0
    assert "filter" not in json.loads(plain.stdout) and every.stdout == plain.stdout


def test_selector_matches_the_labels_of_the_job_a_workload_stands_for(tmp_path):
    jobs = tmp_path / "jobs.yaml"
    jobs.write_text(LABELLED_JOBS)
    out = run_subprocess("explain", "--all", "-f", SNAPSHOT, "-f", str(jobs), "-l", "tier in (gold,silver)",
                         "-o", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [r["workload"].split("/")[1].rsplit("-", 1)[0] for r in doc["workloads"]] == ["job-gold-1"]
    assert doc["filter"]["total"]["workloads"] == 3  # train-42's Workload, and the two jobs'


@pytest.mark.parametrize(("selector", "said"), [
    ("tier in ()", "'tier in ()': for 'in', 'notin' operators, values set can't be empty"),
    ("a>1", "'a>1': the > operator is not supported (use =, !=, in, notin, or a bare key)"),
])
def test_a_selector_it_cannot_read_is_a_usage_error(selector, said):
    out = run_subprocess("explain", "--all", "-f", CLUSTER, "-l", selector)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == f"quotactl: error: -l/--selector: {said}\n"


def test_cluster_queue_and_selector_need_all():
    out = run_subprocess("explain", "ml/eval-llm", "-f", CLUSTER, "--cluster-queue", "team-ml")
    assert out.returncode == 2 and "choose among the workloads of --all" in out.stderr


def test_schedule_namespace_on_files():
    out = run_subprocess("schedule", "-f", CLUSTER, "-n", "team-a")
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith(
        "workloads shown (namespace team-a): 1 of 4 admitted, 0 of 1 preempted, 0 of 1 pending")
    data = run_subprocess("schedule", "-f", CLUSTER, "-n", "team-a", "-o", "json")
    doc = json.loads(data.stdout)
    jsonschema.validate(doc, _schema("schedule"))
    assert [a["workload"] for a in doc["admitted"]] == ["team-a/sweep-17"]
    assert doc["filter"]["total"] == {"admitted": 4, "preempted": 1, "pending": 1}
    assert set(doc["usage"]["clusterQueues"]) >= {"team-b", "team-ml"}  # cluster-scoped: whole


def test_shares_namespace_keeps_the_tournament_order():
    out = run_subprocess("shares", "-f", CLUSTER, "-n", "ml", "-o", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, _schema("shares"))
    assert [(h["order"], h["workload"]) for h in doc["heads"]] == [(4, "ml/eval-llm")]
    assert doc["filter"]["total"] == {"heads": 4}
    text = run_subprocess("shares", "-f", CLUSTER, "-n", "ml")
    assert "1 of 4 queue heads shown (namespace ml)" in text.stdout


def test_diff_namespace_reports_and_gates_on_its_changes():
    ci = FIXTURES / "ci-diff"  # the change evicts and starves team-b's workloads, admits one of team-a's
    args = ("diff", "--base", str(ci / "before"), "--head", str(ci / "after"), "-f", str(ci / "workloads.yaml"),
            "--fail-on", "evictions,starvation")
    every = json.loads(run_subprocess(*args, "-o", "json").stdout)
    team_a = run_subprocess(*args, "-n", "team-a", "-o", "json")
    assert team_a.returncode == 0, team_a.stderr  # none of team-a's workloads is evicted or starved
    doc = json.loads(team_a.stdout)
    jsonschema.validate(doc, _schema("diff"))
    assert doc["workloads"] == [w for w in every["workloads"] if w["workload"].startswith("team-a/")]
    assert doc["capacity"] == every["capacity"] and doc["usage"] == every["usage"]
    assert doc["filter"]["shown"] == {"workloads": 1} and doc["filter"]["total"] == {"workloads": 5}
    team_b = run_subprocess(*args, "-n", "team-b")
    assert team_b.returncode == 1 and "4 of 5 workload changes shown (namespace team-b)" in team_b.stdout


def test_simulate_namespace_on_files():
    out = run_subprocess("simulate", "-f", CLUSTER, "-n", "web", "--default-runtime", "10m", "-o", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, _schema("simulate"))
    assert doc["workloads"] and all(w["workload"].startswith("web/") for w in doc["workloads"])
    assert doc["filter"]["shown"]["workloads"] == len(doc["workloads"]) < doc["filter"]["total"]["workloads"]
    text = run_subprocess("simulate", "-f", CLUSTER, "-n", "web", "--default-runtime", "10m", "--no-plot")
    total = doc["filter"]["total"]["workloads"]
    assert f"simulated {total} workload(s)" in text.stdout
    assert f"workloads shown (namespace web): {len(doc['workloads'])} of {total} workloads" in text.stdout


def test_namespace_filters_job_manifests_explained_without_a_workload():
    new_jobs = str(FIXTURES / "jobs" / "my-job.yaml")  # two Jobs of namespace ml; sweep-9 can never fit
    out = run_subprocess("explain", "-f", SNAPSHOT, "-f", new_jobs, "-n", "web", "--fail-if-pending", "-o", "json")
    assert out.returncode == 0, out.stderr  # nothing of namespace web stays pending
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, _schema("explain"))
    assert doc["workloads"] == [] and doc["filter"]["total"] == {"workloads": 2}
    assert run_subprocess("explain", "-f", SNAPSHOT, "-f", new_jobs, "-n", "ml", "--fail-if-pending").returncode == 1


def test_explain_all_eta_is_filtered_too():
    out = run_subprocess("explain", "--all", "--eta", "-f", CLUSTER, "-n", "ml", "-o", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, _schema("explain"))
    assert [r["workload"] for r in doc["workloads"]] == ["ml/eval-llm"] and "eta" in doc["workloads"][0]
    assert doc["filter"]["shown"] == {"workloads": 1}
