"""explain's candidate topology domains through the CLI in a subprocess (issue 27's example,
tests/kueue/tas/data: a 4x8-GPU job with rack required), in JSON (checked against the output
schema) and text; answers with a placement, admitted workloads and --all carry none."""

from __future__ import annotations

import json

import jsonschema
import yaml

from tests.helpers import CASES, ROOT, run_subprocess

DATA = ROOT / "tests" / "kueue" / "tas" / "data"
SCHEMA = json.loads((ROOT / "schemas" / "output" / "explain.json").read_text())


def _explain(*args) -> dict:
    result = run_subprocess("explain", *args, "-o", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return doc


def test_every_rack_fits_two_of_the_four_pods():
    topo = _explain("default/train", "-f", str(DATA / "racks.yaml"))["topology"]["main"]
    assert topo["mode"] == "NoFit" and topo["assignment"] is None
    assert [(d["values"], d["nodes"], d["podsFit"]) for d in topo["domains"]] == [
        (["b1", "r1"], 2, 2), (["b1", "r2"], 2, 2), (["b2", "r3"], 2, 2), (["b2", "r4"], 2, 2)]
    assert topo["domains"][0] == {"level": "example.com/rack", "values": ["b1", "r1"], "nodes": 2,
                                  "free": {"cpu": "128", "nvidia.com/gpu": "16"}, "podsFit": 2, "excluded": {}}
    assert topo["domainsOmitted"] == 0 and topo["freesUpWhen"] == []


def test_the_workload_whose_preemption_frees_the_rack():
    doc = _explain("default/train", "-f", str(DATA / "racks-held.yaml"))
    topo = doc["topology"]["main"]
    assert topo["mode"] == "Preempt"
    assert topo["freesUpWhen"] == [{"workloads": [{"workload": "default/small", "preemptable": True}],
                                    "level": "example.com/rack", "values": ["b2", "r4"], "podsFitAfter": 4}]
    assert [v["workload"] for v in doc["preemption"]["victims"]] == ["default/small"]
    excluded = {tuple(d["values"]): d["excluded"] for d in topo["domains"]}
    assert excluded[("b1", "r1")] == {'taint "gpu=broken:NoSchedule"': 1}


def test_text_names_the_workload_then_the_domains():
    result = run_subprocess("explain", "default/train", "-f", str(DATA / "racks-held.yaml"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.index("would fit when default/small is preempted (example.com/rack b2/r4 then fits 4/4 pods)") < (
        out.index("pod set main: domains of example.com/rack, in Kueue's order"))
    assert "b2/r4       4  cpu 255, nvidia.com/gpu 24       3/4  resource \"nvidia.com/gpu\": 1" in out


def test_no_domains_where_it_does_not_matter():
    placed = _explain("default/test-wl", "-f", str(CASES / "kueue-tas" / "assign-balanced-placement-basic"
                                                   / "state.yaml"))
    assert placed["topology"]["main"]["assignment"] is not None and "domains" not in placed["topology"]["main"]
    admitted = _explain("default/small", "-f", str(DATA / "racks-held.yaml"))
    assert admitted["status"] == "Admitted" and "domains" not in admitted["topology"]["main"]
    result = run_subprocess("explain", "--all", "-f", str(DATA / "racks-held.yaml"), "-o", "json")
    assert result.returncode == 0 and "domains" not in result.stdout


def test_no_table_when_the_level_has_no_domain():
    """The only node is unschedulable: Kueue's text says so, and no empty table follows."""
    state = CASES / "kueue-tas" / "assign-no-assignment-as-node-is-unschedulable-bestfit" / "state.yaml"
    assert _explain("default/test-wl", "-f", str(state))["topology"]["main"]["domains"] == []
    result = run_subprocess("explain", "default/test-wl", "-f", str(state))
    assert "no topology domains at level: kubernetes.io/hostname" in result.stdout
    assert "domains of" not in result.stdout


def test_no_domains_when_quota_alone_holds_it(tmp_path):
    """One pod fits rack r4 now, but the ClusterQueue's 16 GPUs are taken: Kueue's placement has
    nothing to say, so neither has the domain view."""
    docs = list(yaml.safe_load_all((DATA / "racks-held.yaml").read_text()))
    for d in docs:
        if d["kind"] == "ClusterQueue":
            d["spec"]["resourceGroups"][0]["flavors"][0]["resources"][1]["nominalQuota"] = "16"
        if d["kind"] == "Workload" and d["metadata"]["name"] == "train":
            d["spec"]["podSets"][0]["count"] = 1
    path = tmp_path / "state.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    doc = _explain("default/train", "-f", str(path))
    topo = doc["topology"]["main"]
    assert doc["representativeMode"] == "Preempt" and topo["reason"] is None and "domains" not in topo
