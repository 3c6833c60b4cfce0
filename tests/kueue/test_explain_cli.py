"""``quotactl explain`` through the CLI: exit codes, errors users hit, output formats."""

from __future__ import annotations

import json

import jsonschema

from tests.helpers import FIXTURES, ROOT, run_cli, run_subprocess

CLUSTER = str(FIXTURES / "cluster")
EXTRA = str(ROOT / "tests" / "kueue" / "data" / "explain-extra.yaml")
SCHEMA = json.loads((ROOT / "schemas" / "output" / "explain.json").read_text())


def explain_json(*args):
    r = run_cli("explain", *args, "--output", "json")
    doc = json.loads(r.stdout) if r.exit_code == 0 else None
    if doc is not None:
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return r, doc


def test_contract_fields_for_a_pending_workload():
    r, doc = explain_json("ml/eval-llm", "-f", CLUSTER)
    assert r.exit_code == 0
    assert doc["version"] == 1 and doc["workload"] == "ml/eval-llm" and doc["clusterQueue"] == "team-ml"
    assert doc["status"] == "Pending" and doc["representativeMode"] == "Preempt"
    gpu = doc["podSets"]["main"]["nvidia.com/gpu"]
    assert (gpu["flavor"], gpu["mode"], gpu["borrow"]) == ("a100", "Preempt", False)
    assert gpu["attempts"][0]["reason"] == "insufficient unused quota for nvidia.com/gpu in flavor a100, 2 more needed"
    assert doc["messages"] == ["couldn't assign flavors to pod set main: insufficient unused quota for "
                               "nvidia.com/gpu in flavor a100, 2 more needed"]
    assert doc["reason"] == "WaitingForPreemptedWorkloads"
    assert [v["workload"] for v in doc["preemption"]["victims"]] == ["ml/finetune-llm"]


def test_name_alone_when_unique_and_admitted_workloads():
    r, doc = explain_json("finetune-llm", "-f", CLUSTER)
    assert r.exit_code == 0 and doc["status"] == "Admitted" and doc["representativeMode"] == "Fit"
    assert doc["podSets"]["workers"]["nvidia.com/gpu"] == {
        "flavor": "a100", "mode": "Fit", "borrow": False, "amount": "8", "clusterQueueUsage": "8", "nominal": "8"}


def test_unknown_workload_suggests_close_names():
    r = run_cli("explain", "ml/eval-lm", "-f", CLUSTER)
    assert r.exit_code == 2
    assert "no workload 'ml/eval-lm'" in r.stderr and "did you mean ml/eval-llm" in r.stderr
    r = run_cli("explain", "sweep17", "-f", CLUSTER)
    assert r.exit_code == 2 and "team-a/sweep-17" in r.stderr


def test_usage_errors():
    assert run_cli("explain", "ml/eval-llm").exit_code == 2
    r = run_cli("explain", "-f", CLUSTER)
    assert r.exit_code == 2 and "which workload" in r.stderr
    assert run_cli("explain", "x", "--all", "-f", CLUSTER).exit_code == 2
    assert run_cli("explain", "x", "-f", "does/not/exist.yaml").exit_code == 2


def test_broken_yaml_is_exit_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: [unclosed\n")
    r = run_cli("explain", "ml/eval-llm", "-f", str(bad))
    assert r.exit_code == 2 and "Traceback" not in r.stderr + r.stdout


def test_missing_local_queue_is_a_pending_result():
    r, doc = explain_json("team-a/orphan", "-f", CLUSTER, "-f", EXTRA)
    assert r.exit_code == 0
    assert (doc["reason"], doc["message"]) == ("Misconfigured", "LocalQueue team-x doesn't exist")
    assert doc["clusterQueue"] is None and doc["blocker"]["fix"]


def test_missing_cluster_queue_is_a_pending_result():
    r, doc = explain_json("web/stale-job", "-f", CLUSTER, "-f", EXTRA)
    assert r.exit_code == 0
    assert (doc["reason"], doc["message"]) == ("Misconfigured", "ClusterQueue retired-web doesn't exist")


def test_inactive_cluster_queue_says_why():
    r, doc = explain_json("team-a/old-report", "-f", CLUSTER, "-f", EXTRA)
    assert r.exit_code == 0
    assert (doc["reason"], doc["message"]) == ("Suspended", "ClusterQueue archive is inactive")
    assert doc["clusterQueueInactive"]["reason"] == "Stopped"


def test_missing_flavor_makes_the_cluster_queue_inactive(tmp_path):
    snap = tmp_path / "snap.yaml"
    snap.write_text((FIXTURES / "cluster" / "clusterqueues.yaml").read_text().replace("name: a100", "name: h100"))
    others = [str(p) for p in (FIXTURES / "cluster").glob("*.yaml") if p.name != "clusterqueues.yaml"]
    args = ["ml/eval-llm", "-f", str(snap)]
    for o in others:
        args += ["-f", o]
    r, doc = explain_json(*args)
    assert r.exit_code == 0 and doc["reason"] == "Suspended"
    assert doc["clusterQueueInactive"]["reason"] == "FlavorNotFound"
    assert "h100" in doc["clusterQueueInactive"]["message"]


def test_namespace_selector_mismatch(tmp_path):
    ns = tmp_path / "ns.yaml"
    ns.write_text((FIXTURES / "cluster" / "namespaces.yaml").read_text().replace(
        "name: web\n  labels:\n    org.example.com/department: production", "name: web\n  labels:\n    org: other"))
    args = ["web/web-reindex", "-f", str(ns)]
    for p in (FIXTURES / "cluster").glob("*.yaml"):
        if p.name != "namespaces.yaml":
            args += ["-f", str(p)]
    r, doc = explain_json(*args)
    assert doc["reason"] == "Misconfigured"
    assert doc["message"] == "Workload namespace doesn't match ClusterQueue selector"


def test_fair_sharing_flag_is_reported():
    _, doc = explain_json("ml/eval-llm", "-f", CLUSTER, "--fair-sharing")
    assert doc["fairSharing"] is True
    _, doc = explain_json("ml/eval-llm", "-f", CLUSTER)
    assert doc["fairSharing"] is False


def test_feature_gate_off_writes_pending():
    _, doc = explain_json("team-b/spark-report", "-f", CLUSTER,
                          "--feature-gates", "UnadmittedWorkloadsObservability=false")
    assert doc["reason"] == "WaitingForQuota" and doc["conditionReason"] == "Pending"
    assert run_cli("explain", "x", "-f", CLUSTER, "--feature-gates", "Nope=true").exit_code == 2


def test_all_pending_table_and_json():
    r = run_cli("explain", "--all", "-f", CLUSTER)
    assert r.exit_code == 0 and "ml/eval-llm" in r.stdout and "pending workloads" in r.stdout
    r, doc = explain_json("--all", "-f", CLUSTER)
    assert [w["workload"] for w in doc["workloads"]] == [
        "ml/eval-llm", "team-a/sweep-17", "team-b/spark-report", "web/web-reindex"]
    assert doc["summary"]["pending"] == 4


def test_stdin_and_subprocess_plain_output():
    text = "\n---\n".join(p.read_text() for p in sorted((FIXTURES / "cluster").glob("*.yaml")))
    r = run_subprocess("explain", "team-b/spark-report", "-f", "-", input=text)
    assert r.returncode == 0, r.stderr
    assert "WaitingForQuota" in r.stdout and "What would admit it" in r.stdout
    assert "\x1b[" not in r.stdout  # piped: plain, no colour
