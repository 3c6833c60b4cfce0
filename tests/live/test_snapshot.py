"""quotactl snapshot --from-cluster against the fake API server: what is read, how, and the
bytes written."""

from __future__ import annotations

import json

from tests.helpers import run_subprocess
from tests.live.fake_apiserver import FakeApiServer, kubeconfig


def snapshot(config, *args):
    return run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, *args)


def kinds(doc: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in doc["items"]:
        out[item["kind"]] = out.get(item["kind"], 0) + 1
    return out


def test_every_list_is_paginated_and_read_to_the_end(server, config):
    result = snapshot(config, "-o", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert kinds(doc) == {"ResourceFlavor": 3, "Cohort": 3, "ClusterQueue": 4, "LocalQueue": 4,
                          "WorkloadPriorityClass": 3, "Workload": 7, "Namespace": 4, "PriorityClass": 1,
                          "Pod": 1, "Job": 2, "ConfigMap": 1}
    lists = [r for r in server.requests if r.path.endswith("/workloads")]
    assert [r.query.get("continue") is not None for r in lists] == [False, True, True, True]
    assert all(r.query["limit"] == "500" for r in server.requests if "limit" in r.query)
    listed = {r.path for r in server.requests if r.query}
    assert all("limit" in r.query for r in server.requests if r.path in listed)


def test_items_get_kind_and_api_version_and_lose_managed_fields(config):
    doc = json.loads(snapshot(config, "-o", "json").stdout)
    for item in doc["items"]:
        assert item["apiVersion"] and item["kind"]
        assert "managedFields" not in item["metadata"]
    workload = next(i for i in doc["items"] if i["kind"] == "Workload")
    assert workload["apiVersion"] == "kueue.x-k8s.io/v1beta2"


def test_kueue_v1beta2_is_preferred_over_v1beta1(server, config):
    snapshot(config)
    lists = [r.path for r in server.requests if r.path.startswith("/apis/kueue.x-k8s.io/") and r.query]
    assert lists and {p.split("/")[3] for p in lists} == {"v1beta2"}


def test_v1beta1_is_read_when_the_server_serves_no_v1beta2(tmp_path):
    data = FakeApiServer.recorded().data
    v1beta1 = json.loads(json.dumps(data).replace("kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1")
                         .replace('"version": "v1beta2"', '"version": "v1beta1"'))
    for group in v1beta1["discovery"]["/apis"]["groups"]:
        group["versions"] = [dict(t) for t in {tuple(v.items()) for v in group["versions"]}]
    with FakeApiServer(v1beta1) as srv:
        doc = json.loads(snapshot(kubeconfig(tmp_path / "kc", srv.url), "-o", "json").stdout)
    versions = {i["apiVersion"] for i in doc["items"] if i["apiVersion"].startswith("kueue")}
    assert versions == {"kueue.x-k8s.io/v1beta1"}


def test_pods_are_read_only_with_kueue_labels(server, config):
    doc = json.loads(snapshot(config, "-o", "json").stdout)
    assert [i["metadata"]["name"] for i in doc["items"] if i["kind"] == "Pod"] == ["notebook-1"]
    selectors = sorted(r.query["labelSelector"] for r in server.requests if r.path == "/api/v1/pods")
    assert selectors == ["kueue.x-k8s.io/pod-group-name", "kueue.x-k8s.io/queue-name"]


def test_the_kueue_manager_configmap_is_read_from_the_kueue_namespace(server, config):
    doc = json.loads(snapshot(config, "-o", "json").stdout)
    configmap = next(i for i in doc["items"] if i["kind"] == "ConfigMap")
    assert configmap["metadata"]["name"] == "kueue-manager-config"
    assert "controller_manager_config.yaml" in configmap["data"]
    snapshot(config, "--system-namespace", "kueue")
    assert "/api/v1/namespaces/kueue/configmaps/kueue-manager-config" in {r.path for r in server.requests}


def test_the_same_cluster_gives_the_same_bytes(config):
    for fmt in ("yaml", "json"):
        first, second = snapshot(config, "-o", fmt), snapshot(config, "-o", fmt)
        assert first.returncode == 0 and first.stdout == second.stdout


def test_yaml_and_json_hold_the_same_objects(config):
    from ruamel.yaml import YAML

    as_yaml = YAML(typ="safe", pure=True).load(snapshot(config).stdout)
    assert as_yaml == json.loads(snapshot(config, "-o", "json").stdout)
    assert as_yaml["kind"] == "List"
    assert as_yaml["metadata"]["annotations"]["quotactl.io/source"] == "cluster:fake"


def test_namespace_scopes_namespaced_lists_only(server, config):
    result = snapshot(config, "-n", "team-a", "-o", "json")
    assert result.returncode == 0, result.stderr
    paths = {r.path for r in server.requests}
    assert "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads" in paths
    assert "/apis/kueue.x-k8s.io/v1beta2/workloads" not in paths
    assert "/apis/kueue.x-k8s.io/v1beta2/clusterqueues" in paths
    doc = json.loads(result.stdout)
    assert {i["metadata"]["namespace"] for i in doc["items"] if i["kind"] == "Workload"} == {"team-a"}
    assert "read namespace team-a only" in result.stderr


def test_the_kubeconfig_environment_variable_is_honoured(server, config):
    result = run_subprocess("snapshot", "--from-cluster", env={"KUBECONFIG": str(config)})
    assert result.returncode == 0, result.stderr
    assert server.requests


def test_a_workload_keeps_only_the_managed_fields_entry_that_owns_its_admission():
    """Who owns status.admission decides whether an eviction removes it
    (kueue.workload.eviction_clears_admission); everything else of managedFields goes."""
    from quotactl.live.discovery import Served
    from quotactl.live.fetch import clean

    entries = [{"manager": "kubectl", "operation": "Update", "fieldsV1": {"f:spec": {}}},
               {"manager": "kueue-admission", "operation": "Apply", "subresource": "status", "time": "t",
                "fieldsV1": {"f:status": {"f:admission": {"f:clusterQueue": {}}, "f:conditions": {}}}}]
    item = {"metadata": {"name": "w", "managedFields": entries}}
    served = Served("kueue.x-k8s.io", "v1beta2", "workloads", "Workload", True)
    assert clean(item, served)["metadata"]["managedFields"] == [
        {"manager": "kueue-admission", "operation": "Apply", "subresource": "status", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:status": {"f:admission": {}}}}]
    queue = clean({"metadata": {"name": "q", "managedFields": entries}}, Served("kueue.x-k8s.io", "v1beta2", "localqueues",
                                                                               "LocalQueue", True))
    assert "managedFields" not in queue["metadata"]
