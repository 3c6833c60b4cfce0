"""--from-cluster with topology-aware scheduling: Topologies are read like every Kueue kind; Nodes
and live Pods only when a ResourceFlavor names a Topology, paged 500 at a time (5,000 Nodes and
100,000 Pods end to end), Pods filtered by the server to the live phases and trimmed."""

from __future__ import annotations

import copy
import json
import time

from quotactl.live.client import Target
from quotactl.live.snapshot import Request, read_cluster
from tests.helpers import run_subprocess
from tests.live.fake_apiserver import FakeApiServer, kubeconfig
from tests.live.test_snapshot import kinds, snapshot

V1BETA2 = "/apis/kueue.x-k8s.io/v1beta2"
TOPOLOGY = {"metadata": {"name": "default"},
            "spec": {"levels": [{"nodeLabel": "cloud.com/block"}, {"nodeLabel": "cloud.com/rack"},
                                {"nodeLabel": "kubernetes.io/hostname"}]}}
GPU = "nvidia.com/gpu.product"


def _node(i: int) -> dict:
    labels = {GPU: "A100-SXM4-80GB", "cloud.com/block": f"b{i // 1000}", "cloud.com/rack": f"r{i // 16}",
              "kubernetes.io/hostname": f"n{i}"}
    return {"metadata": {"name": f"n{i}", "labels": labels},
            "status": {"allocatable": {"cpu": "64", "nvidia.com/gpu": "8"}, "images": [{"names": ["example"]}]}}


def _pod(i: int, nodes: int, phase: str = "Running") -> dict:
    return {"metadata": {"name": f"p{i}", "namespace": "batch", "uid": f"u{i}"},
            "spec": {"nodeName": f"n{i % nodes}", "containers": [
                {"name": "c", "image": "example", "resources": {"requests": {"cpu": "100m"}}}]},
            "status": {"phase": phase}}


def tas_data(nodes: int, pods: int, finished: int = 0, *, version: str = "v1beta2", tas: bool = True) -> dict:
    """The recorded cluster with a Topology (served at ``version``), flavor a100 naming it when
    ``tas``, and ``nodes`` Nodes, ``pods`` running and ``finished`` finished Pods."""
    data = copy.deepcopy(FakeApiServer.recorded().data)
    group = f"/apis/kueue.x-k8s.io/{version}"
    data["discovery"][group]["resources"].append(
        {"kind": "Topology", "name": "topologies", "namespaced": False, "verbs": ["get", "list", "watch"]})
    data["lists"][f"{group}/topologies"] = [TOPOLOGY]
    if tas:
        a100 = next(f for f in data["lists"][f"{V1BETA2}/resourceflavors"] if f["metadata"]["name"] == "a100")
        a100["spec"]["topologyName"] = "default"
    data["lists"]["/api/v1/nodes"] = [_node(i) for i in range(nodes)]
    labelled = data["lists"]["/api/v1/pods"]  # a Pod with Kueue's queue label and a plain one
    data["lists"]["/api/v1/pods"] = labelled + [_pod(i, max(nodes, 1)) for i in range(pods)] + [
        _pod(pods + i, max(nodes, 1), ("Succeeded", "Failed")[i % 2]) for i in range(finished)]
    return data


def _read(tmp_path, data, page_size=2, *args):
    with FakeApiServer(data, page_size=page_size) as srv:
        result = snapshot(kubeconfig(tmp_path / "kc", srv.url), "-o", "json", *args)
    assert result.returncode == 0, result.stderr
    return srv, result


def test_tas_flavor_reads_topology_nodes_and_live_pods(tmp_path):
    srv, result = _read(tmp_path, tas_data(nodes=5, pods=6, finished=3))
    doc = json.loads(result.stdout)
    counts = kinds(doc)
    assert counts["Topology"] == 1 and counts["Node"] == 5
    assert counts["Pod"] == 2 + 6  # the recorded two (one read by label, one live) and the running ones
    pods = [r for r in srv.requests if r.path == "/api/v1/pods"]
    live = [r for r in pods if "fieldSelector" in r.query]
    assert {r.query["fieldSelector"] for r in live} == {"status.phase!=Succeeded,status.phase!=Failed"}
    assert all(r.query["limit"] == "500" for r in live) and len(live) == 4  # 8 live Pods, 2 a page
    names = [i["metadata"]["name"] for i in doc["items"] if i["kind"] == "Pod"]
    assert len(names) == len(set(names))  # the labelled Pod is listed once
    labelled = next(i for i in doc["items"] if i["kind"] == "Pod" and i["metadata"]["name"] == "notebook-1")
    plain = next(i for i in doc["items"] if i["kind"] == "Pod" and i["metadata"]["name"] == "p0")
    container = {"name": "c", "resources": {"requests": {"cpu": "100m"}}}  # no image: trimmed
    assert plain["spec"] == {"nodeName": "n0", "containers": [container]}
    assert plain["status"] == {"phase": "Running"} and plain["apiVersion"] == "v1"
    assert "image" in json.dumps(labelled)  # Kueue's own Pods are kept whole: the Pod integration reads them
    node = next(i for i in doc["items"] if i["kind"] == "Node")
    assert node == {"apiVersion": "v1", "kind": "Node", "metadata": _node(0)["metadata"], "spec": {},
                    "status": {"allocatable": {"cpu": "64", "nvidia.com/gpu": "8"}}}  # status.images dropped


def test_without_tas_flavor_no_node_or_live_pod_is_read(tmp_path):
    srv, result = _read(tmp_path, tas_data(nodes=5, pods=6, tas=False))
    counts = kinds(json.loads(result.stdout))
    assert counts["Topology"] == 1 and "Node" not in counts and counts["Pod"] == 1
    assert not [r for r in srv.requests if r.path == "/api/v1/nodes"]
    assert not [r for r in srv.requests if "fieldSelector" in r.query]


def test_topology_falls_back_to_v1beta1(tmp_path):
    data = tas_data(nodes=1, pods=0, version="v1beta1")
    _srv, result = _read(tmp_path, data)
    [topology] = [i for i in json.loads(result.stdout)["items"] if i["kind"] == "Topology"]
    assert topology["apiVersion"] == "kueue.x-k8s.io/v1beta1" and topology["spec"] == TOPOLOGY["spec"]


def test_snapshot_with_topology_replays_offline(tmp_path):
    """The file ``snapshot`` writes answers as the live run does (lint names the file, see test_replay)."""
    with FakeApiServer(tas_data(nodes=4, pods=3)) as srv:
        config = kubeconfig(tmp_path / "kc", srv.url)
        snap = tmp_path / "snap.json"
        snap.write_text(snapshot(config, "-o", "json").stdout)
        for command in (("schedule",), ("explain", "--all")):
            live = run_subprocess(*command, "--from-cluster", "--kubeconfig", config, "-o", "json")
            offline = run_subprocess(*command, "-f", str(snap), "-o", "json")
            assert offline.returncode == live.returncode and offline.returncode in (0, 1), offline.stderr
            assert offline.stdout == live.stdout


def test_5000_nodes_and_100000_pods_page_through(tmp_path):
    """The real client over HTTP, in process: rendering 100,000 Pods as indented JSON (the
    ``snapshot`` subprocess) would take longer than the paging under test."""
    data = tas_data(nodes=5000, pods=100_000, finished=2_000)
    progress: list[tuple[str, int]] = []
    with FakeApiServer(data, page_size=500) as srv:
        request = Request(Target(str(kubeconfig(tmp_path / "kc", srv.url)), None, 30.0))
        t0 = time.perf_counter()
        snap = read_cluster(request, lambda what, n: progress.append((what, n)))
        seconds = time.perf_counter() - t0
    counts = kinds(snap.document)
    assert counts["Node"] == 5000 and counts["Pod"] == 100_000 + 2
    nodes = [r for r in srv.requests if r.path == "/api/v1/nodes"]
    live = [r for r in srv.requests if r.path == "/api/v1/pods" and "fieldSelector" in r.query]
    assert len(nodes) == 10 and len(live) == 201  # 100,001 live Pods, 500 a page
    assert [r.query.get("continue") is None for r in live].count(True) == 1
    assert progress == [("pods", n) for n in range(10_000, 100_001, 10_000)]
    print(f"5,000 nodes / 100,000 pods paged in {seconds:.2f} s")


def test_long_lists_report_progress_on_stderr(tmp_path):
    _srv, result = _read(tmp_path, tas_data(nodes=0, pods=41), 2)  # 43 live Pods: 22 pages of 2
    assert result.stderr.splitlines() == ["quotactl: reading pods: 40 so far"]


def test_nodes_the_credentials_may_not_list_are_skipped_with_a_warning(tmp_path):
    with FakeApiServer(tas_data(nodes=3, pods=2), forbidden={"/api/v1/nodes"}) as srv:
        result = snapshot(kubeconfig(tmp_path / "kc", srv.url), "-o", "json")
    assert result.returncode == 0, result.stderr
    assert "no permission to list nodes (cluster-scoped)" in result.stderr
    counts = kinds(json.loads(result.stdout))
    assert "Node" not in counts and counts["Pod"] == 2 + 2
