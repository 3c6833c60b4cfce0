"""TASPartialSlices through the CLI in a subprocess, on issue 27's racks (tests/kueue/tas/data/racks.yaml:
blocks of two racks of two 8-GPU nodes): 3 x 8-GPU pods in a block, in slices of two pods per rack.
With the gate (on by default) the third pod is a partial slice and lands in the block's other rack;
with it off Kueue places the whole slice only (the third pod is left out), as before the gate."""

from __future__ import annotations

import json

from tests.cli.tas_racks import explained_topology as _topology
from tests.cli.tas_racks import racks, write_state
from tests.helpers import ROOT, run_subprocess

BLOCK, RACK, HOST = "example.com/block", "example.com/rack", "kubernetes.io/hostname"


def _state(tmp_path, count: int, gate: bool | None) -> str:
    docs = racks()
    for d in docs:
        if d["kind"] == "Workload" and d["metadata"]["name"] == "train":
            ps = d["spec"]["podSets"][0]
            ps["count"] = count
            ps["topologyRequest"] = {"required": BLOCK, "podSetSliceRequiredTopology": RACK, "podSetSliceSize": 2}
    return write_state(tmp_path, docs, {} if gate is None else {"TASPartialSlices": gate})


def _per_rack(assignment: dict) -> list[int]:
    rack_of = {"x1": "r1", "x2": "r1", "x3": "r2", "x4": "r2"}
    counts: dict[str, int] = {}
    for d in assignment["domains"]:
        counts[rack_of[d["values"][0]]] = counts.get(rack_of[d["values"][0]], 0) + d["count"]
    return sorted(counts.values())


def test_with_the_gate_the_partial_slice_takes_another_rack(tmp_path):
    topo = _topology(_state(tmp_path, 3, None))
    assert topo["mode"] == "Fit"
    assert topo["assignment"]["levels"] == [HOST]
    assert _per_rack(topo["assignment"]) == [1, 2]


def test_without_the_gate_only_whole_slices_are_placed(tmp_path):
    topo = _topology(_state(tmp_path, 3, False))
    assert topo["mode"] == "Fit"
    assert _per_rack(topo["assignment"]) == [2]


def test_a_partial_slice_counts_as_a_slice_in_the_failure_and_the_domains(tmp_path):
    """5 pods make two whole slices and a partial one: a block's two racks hold two slices."""
    topo = _topology(_state(tmp_path, 5, None))
    assert topo["mode"] == "NoFit" and topo["assignment"] is None
    assert topo["reason"] == 'topology "gpu-topology" allows to fit only 2 out of 3 slice(s)'
    assert [(d["values"], d["slicesFit"]) for d in topo["domains"]] == [(["b1"], 2), (["b2"], 2)]


LWS = ROOT / "fixtures" / "tas" / "lws-partial-slice.yaml"


def _lws(*flags: str) -> dict:
    result = run_subprocess("explain", "default/lws-group", "-f", str(LWS), "-o", "json", *flags)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["topology"]


def test_a_sliced_leader_worker_group_fills_the_leaders_rack():
    """fixtures/tas/lws-partial-slice.yaml (kueue PR #15640's user story): the leader's rack holds the
    partial slice of 3 workers; off, 3 whole slices in the other racks and 3 workers unplaced."""
    on = _lws()
    assert on["leader"]["assignment"]["domains"] == [{"values": ["r1a"], "count": 1}]
    workers = {d["values"][0] for d in on["workers"]["assignment"]["domains"]}
    assert len(workers) == 15 and {"r1b", "r1c", "r1d"} <= workers
    off = _lws("--feature-gates", "TASPartialSlices=false")
    assert sum(d["count"] for d in off["workers"]["assignment"]["domains"]) == 12
