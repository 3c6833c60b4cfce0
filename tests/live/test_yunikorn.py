"""--from-cluster on a YuniKorn cluster (no kueue.x-k8s.io API): the yunikorn-configs ConfigMap,
Nodes and every Pod, and the same answers replayed from the snapshot."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess
from tests.live.fake_apiserver import FakeApiServer, kubeconfig


@pytest.fixture
def yk_config(tmp_path):
    with FakeApiServer.recorded("yunikorn") as srv:
        yield kubeconfig(tmp_path / "kubeconfig", srv.url), srv


def test_the_scheduler_is_yunikorn_when_kueue_is_not_served(yk_config):
    config, srv = yk_config
    result = run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, "-o", "json")
    assert result.returncode == 0, result.stderr
    kinds = {i["kind"] for i in json.loads(result.stdout)["items"]}
    assert kinds == {"PriorityClass", "Node", "Pod", "ConfigMap"}  # the fixture has no Namespace
    paths = {r.path for r in srv.requests}
    assert "/api/v1/namespaces/yunikorn/configmaps/yunikorn-configs" in paths
    assert "/api/v1/namespaces/yunikorn/configmaps/yunikorn-defaults" in paths
    assert all(not r.query.get("labelSelector") for r in srv.requests)


@pytest.mark.parametrize("command", [("queues",), ("lint",)], ids=" ".join)
def test_live_and_replayed_yunikorn_answers_are_the_same(command, yk_config, tmp_path):
    config, _ = yk_config
    snap = tmp_path / "snap.json"
    snap.write_text(run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, "-o", "json").stdout)
    live = run_subprocess(*command, "--from-cluster", "--kubeconfig", config, "-o", "json")
    replay = run_subprocess(*command, "-f", snap, "-o", "json")
    assert live.returncode == replay.returncode and live.returncode in (0, 1), live.stderr
    assert json.loads(live.stdout) == json.loads(replay.stdout.replace(str(snap), "cluster:fake"))


def test_explain_a_yunikorn_pod_from_the_cluster(yk_config, tmp_path):
    config, _ = yk_config
    doc = json.loads(run_subprocess("snapshot", "--from-cluster", "--kubeconfig", config, "-o", "json").stdout)
    pod = next(i for i in doc["items"] if i["kind"] == "Pod")
    name = f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"
    result = run_subprocess("explain", name, "--from-cluster", "--kubeconfig", config, "-o", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["version"] == 1
