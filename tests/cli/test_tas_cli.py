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
