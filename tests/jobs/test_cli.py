"""`quotactl workload`: output formats, the JSON schema, exit codes, malformed input end to end."""

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from tests.helpers import ROOT, run_cli, run_subprocess

SCHEMA = json.loads((ROOT / "schemas" / "output" / "workload.json").read_text())
CASES = sorted(p.parent for p in (Path(__file__).parent / "cases").glob("*/case.json"))

GOOD_AND_BAD = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: bad
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: team-a}
spec:
  parallelism: -2
  template: {spec: {containers: [{name: c}]}}
---
apiVersion: kubeflow.org/v9
kind: PyTorchJob
metadata: {name: future, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: team-a}}
spec: {}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train-42
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: team-a}
spec:
  parallelism: 2
  template:
    spec:
      containers:
      - name: c
        resources: {requests: {cpu: "1", memory: 1Gi}}
"""


@pytest.fixture
def jobs_file(tmp_path: Path) -> Path:
    path = tmp_path / "jobs.yaml"
    path.write_text(GOOD_AND_BAD)
    return path


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_json_output_matches_the_schema(case: Path):
    result = run_cli("workload", "-f", case / "input.yaml", "-o", "json")
    jsonschema.validate(json.loads(result.stdout), SCHEMA)


def test_malformed_input_output_matches_the_schema(jobs_file: Path):
    doc = json.loads(run_cli("workload", "-f", jobs_file, "-o", "json").stdout)
    jsonschema.validate(doc, SCHEMA)
    assert [d["code"] for d in doc["diagnostics"]] == ["JB001", "JB002"]


def test_yaml_is_the_default_and_a_kind_list(jobs_file: Path):
    doc = YAML(typ="safe").load(run_cli("workload", "-f", jobs_file).stdout)
    assert doc["kind"] == "List"
    assert [w["metadata"]["annotations"]["quotactl.io/owner"] for w in doc["items"]] == ["job/team-a/train-42"]


def test_table_shows_owner_pod_sets_requests_queue_and_cluster_queue(jobs_file: Path):
    result = run_cli("workload", "-f", jobs_file, "-f", ROOT / "fixtures" / "cluster" / "localqueues.yaml",
                     "-o", "table")
    lines = result.stdout.splitlines()
    assert "CLUSTERQUEUE" in lines[0]
    row = next(line for line in lines if "job/team-a/train-42" in line)
    assert row.split()[2:5] == ["main", "2", "cpu=1,"] and row.split()[-1] == "team-a"
    assert "job/team-a/bad" in result.stdout and "pytorchjob/team-a/future" in result.stdout


@pytest.mark.parametrize("args, message", [
    ((), "no input"),
    (("-f", ROOT / "fixtures" / "cluster" / "flavors.yaml"), "no job objects"),
])
def test_usage_errors_exit_2(args, message):
    result = run_cli("workload", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_malformed_jobs_end_to_end(jobs_file: Path):
    """A real process: diagnostics with file:line on stderr, no traceback, the rest still derived."""
    proc = run_subprocess("workload", "-f", jobs_file, "-o", "json")
    assert proc.returncode == 0
    assert f"{jobs_file}:8:3: error: Job/team-a/bad: spec.parallelism: must be greater than or equal to 0" in proc.stderr
    assert f"{jobs_file}:11:1: warning: PyTorchJob/team-a/future" in proc.stderr
    assert "Traceback" not in proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["items"]) == 1
    assert {s["object"] for s in doc["skipped"]} == {"job/team-a/bad", "pytorchjob/team-a/future"}


def test_yaml_syntax_error_exits_2_without_traceback(tmp_path: Path):
    path = tmp_path / "broken.yaml"
    path.write_text("kind: Job\nmetadata: {name: [\n")
    proc = run_subprocess("workload", "-f", path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_derived_workloads_pipe_into_explain(jobs_file: Path, tmp_path: Path):
    """Would my job be admitted? Derive, then explain against the cluster."""
    derived = tmp_path / "derived.yaml"
    derived.write_text(run_cli("workload", "-f", jobs_file).stdout)
    name = YAML(typ="safe").load(derived.read_text())["items"][0]["metadata"]["name"]
    result = run_cli("explain", f"team-a/{name}", "-f", ROOT / "fixtures" / "cluster", "-f", derived, "-o", "json")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["clusterQueue"] == "team-a" and doc["status"] == "Pending"
