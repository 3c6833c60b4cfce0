"""Topology-aware scheduling through the CLI in a subprocess, on variations of the kueue-tas cases
(Kueue's TestScheduleForTAS states, tests/acceptance/cases/kueue-tas): heads of two ClusterQueues
wanting the same node in one cycle, and a preemption that frees the node a workload needs."""

from __future__ import annotations

import copy
import json

import yaml

from tests.helpers import CASES, run_subprocess

ONE_NODE = CASES / "kueue-tas" / "schedule-workload-required-tas-gets-scheduled" / "state.yaml"
NEXT_TO_ADMITTED = (CASES / "kueue-tas" / "schedule-workload-gets-admitted-next-to-already-admitted-workload-multip-2be87a"
                    / "state.yaml")


def _docs(path):
    return list(yaml.safe_load_all(path.read_text()))


def _write(tmp_path, docs) -> str:
    out = tmp_path / "state.yaml"
    out.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return str(out)


def _json(*args) -> dict:
    result = run_subprocess(*args, "-o", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_node_taken_earlier_in_the_cycle_is_not_given_twice(tmp_path):
    """foo (tas-main) and bar (tas-second) both need the one cpu of x1; foo is older, so it is
    admitted, and bar, placed again on the snapshot with foo's pods, waits."""
    docs = []
    for d in _docs(ONE_NODE):
        docs.append(d)
        twin = copy.deepcopy(d)
        if d["kind"] == "ClusterQueue":
            twin["metadata"]["name"] = "tas-second"
            docs.append(twin)
        elif d["kind"] == "LocalQueue":
            twin["metadata"]["name"] = twin["spec"]["clusterQueue"] = "tas-second"
            docs.append(twin)
        elif d["kind"] == "Workload":
            twin["metadata"].update(name="bar", creationTimestamp="2026-07-31T12:00:01Z")
            twin["spec"]["queueName"] = "tas-second"
            docs.append(twin)
    got = _json("schedule", "-f", _write(tmp_path, docs), "--cycles", "1")
    assert [a["workload"] for a in got["admitted"]] == ["default/foo"]
    assert got["admitted"][0]["topologyAssignments"] == {
        "one": {"levels": ["kubernetes.io/hostname"], "domains": [{"values": ["x1"], "count": 1}]}}
    (bar,) = got["pending"]
    assert bar["workload"] == "default/bar" and "doesn't allow to fit any of 1 pod(s)" in bar["message"]


def _preempting_state(tmp_path) -> str:
    """bar-admitted (priority 0) holds half of x1; foo (priority 100) needs all of it."""
    docs = _docs(NEXT_TO_ADMITTED)
    for d in docs:
        if d["kind"] == "ClusterQueue":
            d["spec"]["preemption"]["withinClusterQueue"] = "LowerPriority"
        if d["kind"] == "Workload" and d["metadata"]["name"] == "foo":
            d["spec"]["priority"] = 100
            d["spec"]["podSets"][0]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1"
    return _write(tmp_path, docs)


def test_explain_names_the_victim_that_frees_the_node(tmp_path):
    got = _json("explain", "default/foo", "-f", _preempting_state(tmp_path))
    assert got["representativeMode"] == "Preempt"
    assert [v["workload"] for v in got["preemption"]["victims"]] == ["default/bar-admitted"]
    topo = got["topology"]["one"]
    assert (topo["mode"], topo["assignment"]) == ("Preempt", None)
    assert topo["reason"].startswith('topology "tas-single-level" doesn\'t allow to fit any of 1 pod(s)')


def test_the_preempted_workload_frees_its_node(tmp_path):
    got = _json("schedule", "-f", _preempting_state(tmp_path), "--cycles", "3")
    assert [(p["workload"], p["cycle"]) for p in got["preempted"]] == [("default/bar-admitted", 1)]
    assert [(a["workload"], a["cycle"]) for a in got["admitted"]] == [("default/foo", 2)]
    assert got["admitted"][0]["topologyAssignments"]["one"]["domains"] == [{"values": ["x1"], "count": 1}]


def test_a_provisioning_request_check_delays_the_placement(tmp_path):
    """Kueue reserves quota and places the pods only once the ProvisioningRequest is provisioned
    (``DelayedTopologyRequest``): the admission carries no topology assignment yet."""
    docs = _docs(ONE_NODE)
    for d in docs:
        if d["kind"] == "ClusterQueue":
            d["spec"]["admissionChecksStrategy"] = {"admissionChecks": [{"name": "prov"}]}
    docs.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "AdmissionCheck", "metadata": {"name": "prov"},
                 "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request"},
                 "status": {"conditions": [{"type": "Active", "status": "True"}]}})
    got = _json("schedule", "-f", _write(tmp_path, docs), "--cycles", "1")
    assert [(a["workload"], a["topologyAssignments"]) for a in got["admitted"]] == [("default/foo", {"one": None})]


def _pod_set(cpu: str, memory: str, tolerate: bool = False) -> dict:
    spec = {"containers": [{"name": "c", "resources": {"requests": {"cpu": cpu, "memory": memory}}}]}
    if tolerate:
        spec["tolerations"] = [{"key": "tas-class", "operator": "Equal", "value": "b", "effect": "NoSchedule"}]
    return {"name": "one", "count": 1, "template": {"spec": spec},
            "topologyRequest": {"preferred": "kubernetes.io/hostname"}}


def test_flavors_sharing_nodes_see_each_others_pods(tmp_path):
    """Kueue's TestScheduleForTAS "two ResourceFlavors share nodes: pending workload lands on the
    fallback flavor when the primary flavor is full": flavor-a's quota is used up by two workloads
    on x1; the pending one takes flavor-b, whose snapshot sees their pods on x1
    (TASHandleOverlappingFlavors), so it goes to x2."""
    docs = _docs(ONE_NODE)
    topology, flavor, cq, lq, node, _wl = docs
    flavor_b = copy.deepcopy(flavor)
    flavor["metadata"]["name"] = "tas-flavor-a"
    flavor_b["metadata"]["name"] = "tas-flavor-b"
    flavor_b["spec"]["nodeTaints"] = [{"key": "tas-class", "value": "b", "effect": "NoSchedule"}]
    cq["spec"]["resourceGroups"][0]["flavors"] = [
        {"name": "tas-flavor-a", "resources": [{"name": "cpu", "nominalQuota": "400m"},
                                               {"name": "memory", "nominalQuota": "400Mi"}]},
        {"name": "tas-flavor-b", "resources": [{"name": "cpu", "nominalQuota": "100m"},
                                               {"name": "memory", "nominalQuota": "100Mi"}]}]
    node["status"]["allocatable"] = {"cpu": "400m", "memory": "400Mi", "pods": "10"}
    x2 = copy.deepcopy(node)
    x2["metadata"]["name"] = x2["metadata"]["labels"]["kubernetes.io/hostname"] = "x2"
    admitted = []
    for name in ("primary-admitted-1", "primary-admitted-2"):
        admitted.append({
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
            "metadata": {"name": name, "namespace": "default", "creationTimestamp": "2026-07-31T12:00:00Z"},
            "spec": {"queueName": "tas-main", "podSets": [_pod_set("200m", "200Mi")]},
            "status": {
                "admission": {"clusterQueue": "tas-main", "podSetAssignments": [{
                    "name": "one", "count": 1, "flavors": {"cpu": "tas-flavor-a", "memory": "tas-flavor-a"},
                    "resourceUsage": {"cpu": "200m", "memory": "200Mi"},
                    "topologyAssignment": {"levels": ["kubernetes.io/hostname"], "slices": [
                        {"domainCount": 1, "valuesPerLevel": [{"universal": "x1"}], "podCounts": {"universal": 1}}]}}]},
                "conditions": [{"type": t, "status": "True", "reason": "ByTest", "message": "",
                                "lastTransitionTime": "2026-08-01T12:00:00Z"} for t in ("QuotaReserved", "Admitted")]}})
    pending = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
               "metadata": {"name": "pending-wl", "namespace": "default", "creationTimestamp": "2026-07-31T12:00:00Z"},
               "spec": {"queueName": "tas-main", "podSets": [_pod_set("100m", "100Mi", tolerate=True)]}}
    state = _write(tmp_path, [topology, flavor, flavor_b, cq, lq, node, x2, *admitted, pending])
    got = _json("schedule", "-f", state, "--cycles", "1")
    (a,) = got["admitted"]
    assert (a["workload"], a["flavors"]["one"]["cpu"]) == ("default/pending-wl", "tas-flavor-b")
    assert a["topologyAssignments"]["one"]["domains"] == [{"values": ["x2"], "count": 1}]


def test_explain_says_why_a_pod_set_gets_no_tas_flavor():
    """Kueue rejects the flavor ("does not contain the requested level"); explain adds the
    placement's own text for it."""
    state = CASES / "kueue-tas" / "schedule-workload-requests-topology-level-which-is-not-present-in-topology"
    got = _json("explain", "default/foo", "-f", str(state / "state.yaml"))
    assert got["representativeMode"] == "NoFit"
    assert got["message"].endswith('Flavor "tas-default" does not contain the requested level')
    assert got["topology"]["one"]["reason"] == "no requested topology level: cloud.com/non-existing"
