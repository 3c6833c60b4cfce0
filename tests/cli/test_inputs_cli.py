"""The inputs users really have (contract: Inputs), through the real CLI: a kubectl List with Nodes
and Pods beside the Kueue objects, a repository holding both schedulers' configs, an override
file given last, snapshots missing a kind the answer depends on, and an empty pipe."""

from __future__ import annotations

import json

import pytest
from ruamel.yaml import YAML

from tests.helpers import FIXTURES, run_subprocess

CLUSTER = FIXTURES / "cluster"
YK_BROKEN = FIXTURES / "yunikorn" / "broken" / "queues.yaml"
NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-1", "labels": {"kubernetes.io/hostname": "gpu-1"}},
        "status": {"allocatable": {"cpu": "32", "memory": "256Gi", "nvidia.com/gpu": "8", "pods": "110"}}}
# A Pod without Kueue's labels: a running pod of something else, not a job Kueue manages.
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "coredns-1", "namespace": "kube-system"},
       "spec": {"nodeName": "gpu-1", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]},
       "status": {"phase": "Running"}}


def whatif_cq() -> str:
    """ClusterQueue team-ml of fixtures/cluster/clusterqueues.yaml with 32 GPUs instead of 8: ml/eval-llm fits."""
    [team_ml] = [d for d in (CLUSTER / "clusterqueues.yaml").read_text().split("---\n") if "name: team-ml\n" in d]
    gpus = "nvidia.com/gpu\n        nominalQuota: 8\n"
    assert team_ml.endswith(gpus)
    return team_ml.removesuffix(gpus) + gpus.replace("8", "32")


EMPTY_INPUT = "the input holds no Kueue or YuniKorn objects"


def kubectl_list(*extra: dict) -> str:
    """``kubectl get nodes,pods,clusterqueues,... -A -o json`` of fixtures/cluster plus ``extra``."""
    yaml = YAML(typ="safe")
    items = [doc for path in sorted(CLUSTER.glob("*.yaml")) for doc in yaml.load_all(path.read_text()) if doc]
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": [*extra, *items]})


def mode(result) -> str:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["representativeMode"]


# -- 1. Nodes and Pods are not YuniKorn -------------------------------------------------------

def test_a_kubectl_list_with_nodes_and_pods_is_explained_as_kueue():
    piped = run_subprocess("explain", "ml/eval-llm", "-f", "-", "-o", "json", input=kubectl_list(NODE, POD))
    assert mode(piped) == mode(run_subprocess("explain", "ml/eval-llm", "-f", CLUSTER, "-o", "json")) == "Preempt"
    every = run_subprocess("explain", "--all", "-f", "-", "-o", "json", input=kubectl_list(NODE, POD))
    alone = run_subprocess("explain", "--all", "-f", CLUSTER, "-o", "json")
    assert every.returncode == 0, every.stderr
    assert every.stdout == alone.stdout  # the Pod without Kueue labels is not a workload, nor an error


def test_a_pod_manifest_beside_kueue_objects_lints_and_schedules(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    for path in CLUSTER.glob("*.yaml"):
        (repo / path.name).write_text(path.read_text())
    (repo / "pod.json").write_text(json.dumps(POD))
    (repo / "node.json").write_text(json.dumps(NODE))
    lint = run_subprocess("lint", repo, "-o", "json")
    assert lint.returncode == 0, lint.stdout
    assert json.loads(lint.stdout)["dialect"] == "kueue"
    schedule = run_subprocess("schedule", "-f", repo, "-o", "json")
    assert schedule.returncode == 0, schedule.stderr
    assert schedule.stdout == run_subprocess("schedule", "-f", CLUSTER, "-o", "json").stdout


def test_nodes_and_pods_alone_name_both_schedulers_configs(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [NODE, POD]}))
    result = run_subprocess("explain", "kube-system/coredns-1", "-f", state)
    assert result.returncode == 2
    assert "holds Node and Pod objects but no scheduler configuration" in result.stderr
    assert "kubectl get clusterqueues" in result.stderr and "yunikorn-configs" in result.stderr


# -- 2. a repository with both schedulers' configs --------------------------------------------

@pytest.fixture
def both_schedulers(tmp_path):
    repo = tmp_path / "platform"
    (repo / "kueue").mkdir(parents=True)
    (repo / "yunikorn").mkdir()
    for path in (FIXTURES / "broken").glob("*.yaml"):
        (repo / "kueue" / path.name).write_text(path.read_text())
    (repo / "yunikorn" / "queues.yaml").write_text(YK_BROKEN.read_text())
    return repo


def test_lint_reports_both_dialects_of_a_mixed_repository(both_schedulers):
    text = run_subprocess("lint", both_schedulers)
    assert text.returncode == 1, text.stderr
    assert " KQ" in text.stdout and " YK" in text.stdout
    assert "kueue/clusterqueues.yaml:" in text.stdout and "yunikorn/queues.yaml:" in text.stdout
    doc = json.loads(run_subprocess("lint", both_schedulers, "-o", "json").stdout)
    errors = {d["code"][:2] for d in doc["diagnostics"] if d["severity"] == "error"}
    assert errors == {"KQ", "YK"}
    sarif = json.loads(run_subprocess("lint", both_schedulers, "-o", "sarif").stdout)
    assert {r["ruleId"][:2] for r in sarif["runs"][0]["results"]} >= {"KQ", "YK"}
    github = run_subprocess("lint", both_schedulers, "-o", "github")
    assert github.returncode == 1
    assert "kueue/clusterqueues.yaml" in github.stdout and "yunikorn/queues.yaml" in github.stdout


def test_a_clean_side_does_not_hide_the_other_sides_errors(tmp_path):
    (tmp_path / "kueue").mkdir()
    for path in CLUSTER.glob("*.yaml"):
        (tmp_path / "kueue" / path.name).write_text(path.read_text())
    (tmp_path / "queues.yaml").write_text(YK_BROKEN.read_text())
    result = run_subprocess("lint", tmp_path, "-o", "json")
    assert result.returncode == 1
    assert {d["code"][:2] for d in json.loads(result.stdout)["diagnostics"] if d["severity"] == "error"} == {"YK"}


@pytest.mark.parametrize("command", [("explain", "--all"), ("schedule",), ("shares",), ("preempt", "ml/eval-llm")],
                         ids=" ".join)
def test_engine_commands_take_one_scheduler(both_schedulers, command):
    result = run_subprocess(*command, "-f", both_schedulers)
    assert result.returncode == 2
    assert "configuration of both Kueue" in result.stderr and "yunikorn/queues.yaml" in result.stderr
    assert "Traceback" not in result.stderr


# -- 3. override files: the later input wins ----------------------------------------------------

def test_an_override_file_given_last_wins_with_a_warning(tmp_path):
    whatif = tmp_path / "whatif-cq.yaml"
    whatif.write_text(whatif_cq())
    result = run_subprocess("explain", "ml/eval-llm", "-f", CLUSTER, "-f", whatif, "-o", "json")
    assert mode(result) == "Fit"
    [warning] = [ln for ln in result.stderr.splitlines() if "also at" in ln]
    assert warning.startswith(f"{whatif}:1: warning: ClusterQueue/team-ml is also at ")
    assert "fixtures/cluster/clusterqueues.yaml:63" in warning
    first = run_subprocess("explain", "ml/eval-llm", "-f", whatif, "-f", CLUSTER, "-o", "json")
    assert mode(first) == "Preempt"  # given first, the snapshot's ClusterQueue replaces it


def test_within_one_file_the_later_document_wins_and_lint_still_reports_it(tmp_path):
    combined = tmp_path / "cluster.yaml"
    combined.write_text("\n---\n".join([*(p.read_text() for p in sorted(CLUSTER.glob("*.yaml"))), whatif_cq()]))
    result = run_subprocess("explain", "ml/eval-llm", "-f", combined, "-o", "json")
    assert mode(result) == "Fit"
    assert f"warning: ClusterQueue/team-ml is also at {combined}:" in result.stderr
    lint = json.loads(run_subprocess("lint", combined, "-o", "json").stdout)
    assert [d["object"] for d in lint["diagnostics"] if d["code"] == "KQ504"] == ["ClusterQueue/team-ml"]


def test_many_overrides_are_capped_with_a_count(tmp_path):
    copy = tmp_path / "cluster.yaml"
    copy.write_text("\n---\n".join(p.read_text() for p in sorted(CLUSTER.glob("*.yaml"))))
    result = run_subprocess("schedule", "-f", CLUSTER, "-f", copy, "-o", "json")
    assert result.returncode == 0, result.stderr
    assert result.stdout == run_subprocess("schedule", "-f", CLUSTER, "-o", "json").stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 11 and all(f"{copy}:" in line for line in lines[:10])
    assert lines[-1].startswith("quotactl: warning: ") and lines[-1].endswith(
        " more object(s) given again; the later of each is used")


# -- 4. incomplete snapshots --------------------------------------------------------------------

KUEUE_KINDS_HINT = "kubectl get clusterqueues,localqueues,resourceflavors -A -o yaml"


@pytest.mark.parametrize("command", [
    ("explain", "ml/eval-llm"), ("explain", "--all"), ("preempt", "ml/eval-llm"), ("schedule",), ("simulate",),
    ("shares",),
], ids=" ".join)
def test_a_workload_only_snapshot_names_the_kinds_to_add(command):
    result = run_subprocess(*command, "-f", CLUSTER / "workloads.yaml")
    assert result.returncode == 2, result.stdout
    assert "no ClusterQueue, LocalQueue or ResourceFlavor objects" in result.stderr
    assert KUEUE_KINDS_HINT in result.stderr


def test_diff_checks_each_side(tmp_path):
    result = run_subprocess("diff", "--base", CLUSTER, "--head", CLUSTER / "workloads.yaml")
    assert result.returncode == 2
    assert "--head: the input holds no ClusterQueue" in result.stderr


def test_a_missing_kind_is_named_alone(tmp_path):
    files = [CLUSTER / n for n in ("clusterqueues.yaml", "workloads.yaml", "flavors.yaml")]
    result = run_subprocess("explain", "--all", *(a for f in files for a in ("-f", f)))
    assert result.returncode == 2
    assert "no LocalQueue objects" in result.stderr and "kubectl get localqueues -A -o yaml" in result.stderr


def test_one_missing_object_among_others_is_kueues_answer(tmp_path):
    lost = tmp_path / "lost.yaml"
    lost.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: lost, namespace: ml}\n"
                    "spec:\n  queueName: no-such-queue\n  podSets:\n  - name: main\n    count: 1\n    template:\n"
                    "      spec:\n        containers:\n        - name: c\n          resources: {requests: {cpu: '1'}}\n")
    result = run_subprocess("explain", "ml/lost", "-f", CLUSTER, "-f", lost, "-o", "json")
    assert result.returncode == 0, result.stderr
    assert "no-such-queue" in json.loads(result.stdout)["message"]


def test_simulate_with_a_generator_needs_no_snapshot_objects(tmp_path):
    generator = tmp_path / "generator.yaml"  # Kueue's scheduler-perf format, as fixtures/simulate/kueue-baseline
    generator.write_text("cohorts:\n- className: cohort\n  count: 1\n  queuesSets:\n  - className: cq\n    count: 1\n"
                         "    nominalQuota: 4\n    borrowingLimit: 0\n    reclaimWithinCohort: Never\n"
                         "    withinClusterQueue: Never\n    workloadsSets:\n    - count: 2\n"
                         "      creationIntervalMs: 100\n      workloads:\n      - className: small\n"
                         "        runtimeMs: 200\n        priority: 50\n        request: 1\n")
    result = run_subprocess("simulate", "--generator", generator, "-f", CLUSTER / "workloads.yaml", "-o", "json")
    assert result.returncode == 0, result.stderr


# -- 5. empty input -----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ("explain", "ml/eval-llm"), ("explain", "--all"), ("preempt", "ml/eval-llm"), ("schedule",), ("simulate",),
    ("shares",),
], ids=" ".join)
def test_an_empty_pipe_is_an_input_error(command):
    result = run_subprocess(*command, "-f", "-", input="")
    assert result.returncode == 2, result.stdout
    assert EMPTY_INPUT in result.stderr and result.stdout == ""


def test_diff_of_empty_inputs_is_an_input_error(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = run_subprocess("diff", "--base", empty, "--head", CLUSTER)
    assert result.returncode == 2 and f"--base: {EMPTY_INPUT}" in result.stderr


def test_lint_of_an_empty_input_is_unchanged():
    result = run_subprocess("lint", "-", input="")
    assert result.returncode == 0, result.stdout + result.stderr
