"""TASNodeFeasibilityForAllLevels through the CLI in a subprocess: issue 27's example
(tests/kueue/tas/data/racks.yaml, racks of two 8-GPU nodes) with the hostname level taken out of
the Topology and a 3 x 5-GPU job requiring a rack.  With the gate (on by default) each node takes
one pod, so no rack holds three; with it off a rack's 16 GPU hold them."""

from __future__ import annotations

import json

import yaml

from tests.cli.tas_racks import explained_topology as _topology
from tests.cli.tas_racks import racks, write_state
from tests.helpers import run_subprocess

BLOCK, RACK = "example.com/block", "example.com/rack"


def _state(tmp_path, gate: bool | None, held: bool = False) -> str:
    docs = racks()
    for d in docs:
        if d["kind"] == "Topology":
            d["spec"]["levels"] = [{"nodeLabel": BLOCK}, {"nodeLabel": RACK}]
        elif d["kind"] == "Workload" and d["metadata"]["name"] == "train":
            ps = d["spec"]["podSets"][0]
            ps["count"] = 3
            ps["template"]["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] = "5"
    return write_state(tmp_path, docs, {} if gate is None else {"TASNodeFeasibilityForAllLevels": gate})


def test_with_the_gate_each_node_takes_one_pod(tmp_path):
    topo = _topology(_state(tmp_path, None))
    assert topo["mode"] == "NoFit" and topo["assignment"] is None
    assert topo["reason"].startswith('topology "gpu-topology" allows to fit only 2 out of 3 pod(s)')
    assert [(d["values"], d["nodes"], d["podsFit"]) for d in topo["domains"]] == [
        (["b1", "r1"], 2, 2), (["b1", "r2"], 2, 2), (["b2", "r3"], 2, 2), (["b2", "r4"], 2, 2)]


def test_without_the_gate_a_rack_pools_its_nodes(tmp_path):
    topo = _topology(_state(tmp_path, False))
    assert topo["mode"] == "Fit"
    assert topo["assignment"] == {"levels": [BLOCK, RACK], "domains": [{"values": ["b1", "r1"], "count": 3}]}


def _held(tmp_path) -> str:
    """Every rack half held by an admitted 1 x 8-GPU workload whose assignment names the rack
    (v1beta1's domains), not a node: each rack's nodes count a 5-GPU pod each, the rack one."""
    docs = list(yaml.safe_load_all(open(_state(tmp_path, None)).read()))
    for d in docs:
        if d["kind"] == "Workload" and d["metadata"]["name"] == "train":
            d["spec"]["podSets"][0]["count"] = 2
            train = d
    for block, rack in (("b1", "r1"), ("b1", "r2"), ("b2", "r3"), ("b2", "r4")):
        small = yaml.safe_load(yaml.safe_dump(train))
        small["metadata"].update(name=f"small-{rack}", creationTimestamp="2026-08-01T11:00:00Z")
        small["spec"]["priority"] = 0
        ps = small["spec"]["podSets"][0]
        ps["count"] = 1
        ps["template"]["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] = "8"
        small["status"] = {"admission": {"clusterQueue": "gpu-cq", "podSetAssignments": [{
            "name": "main", "flavors": {"cpu": "gpu", "nvidia.com/gpu": "gpu"},
            "resourceUsage": {"cpu": "1", "nvidia.com/gpu": "8"}, "count": 1,
            "topologyAssignment": {"levels": [BLOCK, RACK], "domains": [{"values": [block, rack], "count": 1}]}}]},
            "conditions": [{"type": t, "status": "True", "lastTransitionTime": "2026-08-01T12:00:00Z",
                            "reason": t, "message": t} for t in ("QuotaReserved", "Admitted")]}
        docs.append(small)
    out = tmp_path / "held.yaml"
    out.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return str(out)


def test_admitted_usage_bounds_its_rack_and_preempting_it_frees_the_rack(tmp_path):
    result = run_subprocess("explain", "default/train", "-f", _held(tmp_path), "-o", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    topo = doc["topology"]["main"]
    assert topo["mode"] == "Preempt"
    assert [(d["values"], d["podsFit"], d["free"]["nvidia.com/gpu"]) for d in topo["domains"]] == [
        (["b1", "r1"], 1, "8"), (["b1", "r2"], 1, "8"), (["b2", "r3"], 1, "8"), (["b2", "r4"], 1, "8")]
    assert topo["freesUpWhen"][0] == {"workloads": [{"workload": "default/small-r1", "preemptable": True}],
                                      "level": RACK, "values": ["b1", "r1"], "podsFitAfter": 2}
    assert [v["workload"] for v in doc["preemption"]["victims"]] == ["default/small-r1"]
