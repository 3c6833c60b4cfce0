"""Kueue's TAS scheduler-performance config (``configs/tas/generator.yaml``): the Nodes, Topology,
ResourceFlavor and topology requests its runner builds (``runner/generator/topology_generator.go``,
``generator.go``), every way its TAS fields are refused (with their position), and the config
simulated end to end on a scaled-down copy."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from quotactl.kueue.options import engine_options
from quotactl.model.kueue import build_cluster
from quotactl.simulate import split
from quotactl.simulate.generated import generated_objects
from quotactl.simulate.generator import GeneratedScenario, GeneratorError, read_generator
from quotactl.simulate.generator_tas import MAX_NODES, node_name
from quotactl.simulate.run import SimulationOptions, simulate
from quotactl.simulate.scenario import start_time
from tests.helpers import FIXTURES, ROOT, run_subprocess

TAS = FIXTURES / "simulate" / "kueue-tas" / "generator.yaml"
SMALL_TAS = ROOT / "tests" / "simulate" / "data" / "kueue-tas-small.yaml"
BLOCK, RACK, HOST = "cloud.provider.com/topology-block", "cloud.provider.com/topology-rack", "kubernetes.io/hostname"
CLASSES = {f"{size}-{how}-rack" for size in ("small", "medium", "large") for how in ("required", "preferred", "balanced")}

# One cohort, one queue, two levels: the smallest config each refusal below edits.
MINI = """\
topology:
  name: topo
  levels:
  - name: rack
    count: 2
    nodeLabel: example.com/rack
  - name: node
    count: 3
    nodeLabel: kubernetes.io/hostname
    capacity:
      cpu: "8"
resourceFlavor:
  name: tas-flavor
  nodeLabel: tas-node-group
  topologyName: topo
cohorts:
- className: cohort
  count: 1
  queuesSets:
  - className: cq
    count: 1
    nominalQuota: 20
    workloadsSets:
    - count: 2
      creationIntervalMs: 100
      workloads:
      - className: w
        runtimeMs: 200
        request: 500m
        podCount: 4
        tasConstraint: balanced
        tasLevel: example.com/rack
        sliceSize: 2
"""


@pytest.fixture(scope="module")
def tas() -> GeneratedScenario:
    return read_generator(str(TAS))


def _of_kind(scenario: GeneratedScenario, kind: str) -> list[dict]:
    return [o for o in scenario.objects if o["kind"] == kind]


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "generator.yaml"
    path.write_text(text)
    return str(path)


def _line_col(text: str, needle: str, occurrence: int = 1, offset: int = 0) -> tuple[int, int]:
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# ---------------------------------------------------------------------- the objects built ---

def test_tas_config_builds_640_nodes_a_topology_and_a_tas_flavor(tas):
    assert Counter(o["kind"] for o in tas.objects) == {
        "Node": 640, "Topology": 1, "ResourceFlavor": 1, "ClusterQueue": 30, "Namespace": 30, "LocalQueue": 30}
    # Generate's order: the nodes, the topology, the flavor, then the queues
    assert [o["kind"] for o in tas.objects[639:643]] == ["Node", "Topology", "ResourceFlavor", "ClusterQueue"]
    topology = _of_kind(tas, "Topology")[0]
    assert topology["metadata"]["name"] == "default-topology"
    assert topology["spec"]["levels"] == [{"nodeLabel": BLOCK}, {"nodeLabel": RACK}, {"nodeLabel": HOST}]
    flavor = _of_kind(tas, "ResourceFlavor")[0]
    assert flavor["metadata"]["name"] == "tas-flavor"
    assert flavor["spec"] == {"nodeLabels": {"tas-node-group": "tas"}, "topologyName": "default-topology"}
    cq = _of_kind(tas, "ClusterQueue")[0]
    assert cq["spec"]["resourceGroups"][0]["flavors"][0]["name"] == "tas-flavor"


def test_nodes_carry_every_level_label_and_the_last_level_capacity(tas):
    nodes = _of_kind(tas, "Node")
    assert len({n["metadata"]["name"] for n in nodes}) == 640
    # generateNodesRecursive: depth first, rack by rack
    first, last = nodes[0], nodes[-1]
    assert first["metadata"]["name"] == "node-b0-r0-n0" and last["metadata"]["name"] == "node-b0-r9-n63"
    assert nodes[64]["metadata"]["labels"] == {
        "kueue.x-k8s.io/performance-scheduler-cleanup": "true", "tas-node-group": "tas",
        BLOCK: "block-0", RACK: "rack-1", HOST: "node-0"}
    assert first["status"] == {"allocatable": {"cpu": "96", "memory": "256Gi", "pods": "110"},
                               "conditions": [{"type": "Ready", "status": "True"}]}
    assert Counter(n["metadata"]["labels"][RACK] for n in nodes) == {f"rack-{i}": 64 for i in range(10)}


def test_workloads_have_podcount_pods_and_their_topology_request(tas):
    assert len(tas.workloads) == 15_000
    by_class = Counter(w.manifest["metadata"]["labels"]["quotactl.io/class"] for w in tas.workloads)
    assert by_class == {"small-required-rack": 3600, "small-preferred-rack": 3600, "small-balanced-rack": 3300,
                        "medium-required-rack": 1020, "medium-preferred-rack": 990, "medium-balanced-rack": 990,
                        "large-required-rack": 510, "large-preferred-rack": 510, "large-balanced-rack": 480}
    seen = {}
    for w in tas.workloads:
        seen.setdefault(w.manifest["metadata"]["labels"]["quotactl.io/class"], w.manifest["spec"]["podSets"])
    assert seen["small-required-rack"] == [{"name": "main", "count": 2, "template": {"spec": {
        "restartPolicy": "Never", "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m"}}}]}},
        "topologyRequest": {"required": RACK}}]
    assert seen["medium-preferred-rack"][0]["count"] == 4
    assert seen["medium-preferred-rack"][0]["topologyRequest"] == {"preferred": RACK}
    assert seen["large-balanced-rack"][0]["count"] == 8
    assert seen["large-balanced-rack"][0]["topologyRequest"] == {"podSetSliceRequiredTopology": RACK,
                                                                 "podSetSliceSize": 4}


def test_each_workloads_set_is_its_own_sender(tas):
    # nine senders per queue, all from t0: each class arrives at its own interval
    last: dict[str, float] = {}
    for w in tas.workloads:
        cls = w.manifest["metadata"]["labels"]["quotactl.io/class"]
        last[cls] = max(last.get(cls, 0.0), w.arrival)
    assert last["small-required-rack"] == pytest.approx(12.0)  # 120 x 100 ms
    assert last["small-balanced-rack"] == pytest.approx(11.0)
    assert last["medium-required-rack"] == pytest.approx(17.0)  # 34 x 500 ms
    assert last["large-balanced-rack"] == pytest.approx(19.2)  # 16 x 1200 ms


def test_build_node_name():
    assert node_name(("block-0", "rack-2", "node-15")) == "node-b0-r2-n15"


def test_mini_config_defaults_the_memory_and_reads_a_template_without_tas(tmp_path):
    text = MINI + "      - className: plain\n        request: 1\n        podCount: 3\n"
    scenario = read_generator(_write(tmp_path, text))
    nodes = _of_kind(scenario, "Node")
    assert [n["metadata"]["name"] for n in nodes] == ["node-r0-n0", "node-r0-n1", "node-r0-n2",
                                                      "node-r1-n0", "node-r1-n1", "node-r1-n2"]
    assert nodes[0]["status"]["allocatable"] == {"cpu": "8", "memory": "256Gi", "pods": "110"}
    plain = next(w for w in scenario.workloads if w.manifest["metadata"]["name"].startswith("plain"))
    # without tasLevel upstream builds a one-pod workload, podCount or not
    assert plain.manifest["spec"]["podSets"][0]["count"] == 1
    assert "topologyRequest" not in plain.manifest["spec"]["podSets"][0]


def test_tas_level_without_a_constraint_has_pods_but_no_topology_request(tmp_path):
    text = MINI.replace("        tasConstraint: balanced\n", "").replace("        sliceSize: 2\n", "")
    pod_set = read_generator(_write(tmp_path, text)).workloads[0].manifest["spec"]["podSets"][0]
    assert pod_set["count"] == 4 and "topologyRequest" not in pod_set


# ----------------------------------------------------------------------------- refusals ---

REFUSALS = [
    # (id, edit of MINI, where the error points (text, occurrence[, offset into it]), words of the message)
    ("level without nodeLabel", lambda s: s.replace("    nodeLabel: example.com/rack\n", ""),
     ("name: rack", 1), "topology level topology.levels[0]: missing required field 'nodeLabel'"),
    ("level count 0", lambda s: s.replace("    count: 2\n    nodeLabel", "    count: 0\n    nodeLabel"),
     ("0\n    nodeLabel", 1), "topology.levels[0].count must be at least 1 (got 0)"),
    ("unknown tasConstraint", lambda s: s.replace("tasConstraint: balanced", "tasConstraint: packed"),
     ("packed", 1), "tasConstraint must be one of required, preferred, balanced, not 'packed'"),
    ("tasLevel not a level", lambda s: s.replace("tasLevel: example.com/rack", "tasLevel: example.com/zone"),
     ("example.com/zone", 1), "'example.com/zone' is not a level of topology 'topo'"),
    ("tasConstraint without tasLevel", lambda s: s.replace("        tasLevel: example.com/rack\n", ""),
     ("tasConstraint", 1), "tasConstraint needs tasLevel"),
    ("balanced without sliceSize", lambda s: s.replace("        sliceSize: 2\n", ""),
     ("className: w", 1), "tasConstraint balanced needs sliceSize"),
    ("sliceSize 0", lambda s: s.replace("sliceSize: 2", "sliceSize: 0"),
     ("sliceSize: 0", 1, len("sliceSize: ")), "sliceSize must be at least 1 (got 0)"),
    ("sliceSize with required", lambda s: s.replace("tasConstraint: balanced", "tasConstraint: required"),
     ("sliceSize", 1), "sliceSize is read only with tasConstraint balanced"),
    ("one level", lambda s: s.replace("  - name: rack\n    count: 2\n    nodeLabel: example.com/rack\n", ""),
     ("- name: node", 1), "has 1 level; Kueue's generator needs at least 2"),
    ("duplicate level label", lambda s: s.replace("nodeLabel: kubernetes.io/hostname", "nodeLabel: example.com/rack"),
     ("example.com/rack", 2), "is already the label of levels[0]"),
    ("bad level label", lambda s: s.replace("nodeLabel: example.com/rack", "nodeLabel: \"rack zone\""),
     ("\"rack zone\"", 1), "is not a label key"),
    ("level name with a dash", lambda s: s.replace("- name: rack", "- name: rack-a"),
     ("rack-a", 1), "must be lower-case letters and digits"),
    ("capacity above the last level", lambda s: s.replace(
        "    nodeLabel: example.com/rack\n", "    nodeLabel: example.com/rack\n    capacity:\n      cpu: 1\n"),
     ("capacity", 1), "only the last level's capacity is read"),
    ("bad capacity", lambda s: s.replace("cpu: \"8\"", "cpu: lots"), ("lots", 1), "capacity[cpu]:"),
    ("flavor without topologyName", lambda s: s.replace("  topologyName: topo\n", ""),
     ("resourceFlavor", 1), "set resourceFlavor.topologyName: topo"),
    ("flavor naming another topology", lambda s: s.replace("  topologyName: topo\n", "  topologyName: other\n"),
     ("other", 1), "'other' is not the config's topology ('topo')"),
    ("flavor without nodeLabel", lambda s: s.replace("  nodeLabel: tas-node-group\n", ""),
     ("resourceFlavor", 1), "resourceFlavor.nodeLabel is required when TAS is enabled"),
    ("flavor selecting another label", lambda s: s.replace("nodeLabel: tas-node-group", "nodeLabel: pool"),
     ("pool", 1), "selects no node"),
    ("topologyName without a topology", lambda s: s.split("resourceFlavor:", 1)[1].join(["resourceFlavor:", ""])
     .replace("        tasConstraint: balanced\n        tasLevel: example.com/rack\n        sliceSize: 2\n", ""),
     ("topo\n", 1), "names a topology, but the config has no 'topology'"),
    ("too many nodes", lambda s: s.replace("    count: 3\n", "    count: 100000\n"),
     ("100000", 1), f"this topology generates 200,000 Nodes (2 x 100,000), more than the {MAX_NODES:,}"),
]


@pytest.mark.parametrize(("edit", "at", "words"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_bad_tas_input_is_refused_with_its_position(tmp_path, edit, at, words):
    text = edit(MINI)
    with pytest.raises(GeneratorError) as info:
        read_generator(_write(tmp_path, text))
    err = info.value
    assert words in err.message
    assert (err.line, err.column) == _line_col(text, *at)


# --------------------------------------------------------------------------- end to end ---

def test_scaled_down_tas_config_simulated_with_the_harness_cadence():
    p = run_subprocess("simulate", "--generator", SMALL_TAS, "--cadence", "kueue-harness", "-o", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert set(doc["classes"]) == CLASSES
    assert doc["stopped"] == "drained"
    assert {c: v["admitted"] for c, v in doc["classes"].items()} == {
        c: v["workloads"] for c, v in doc["classes"].items()}
    assert all(v["wait"]["mean"] > 0 for v in doc["classes"].values())
    again = run_subprocess("simulate", "--generator", SMALL_TAS, "--cadence", "kueue-harness", "-o", "json")
    assert again.stdout == p.stdout


def test_a_tas_run_is_never_split_across_processes(monkeypatch, tmp_path):
    # its cohort trees place pods on the same nodes: a worker per tree would not see the others'
    monkeypatch.setattr(split, "MIN_WORKLOADS", 0)
    monkeypatch.setattr(split, "_forked", lambda *a: pytest.fail("a TAS run was split"))
    t0 = start_time(build_cluster([]))
    text = SMALL_TAS.read_text().replace("    count: 1\n    queuesSets:", "    count: 2\n    queuesSets:")
    assert text != SMALL_TAS.read_text()
    cluster = build_cluster(generated_objects(read_generator(_write(tmp_path, text)), t0))
    result = simulate(cluster, engine_options(cluster), SimulationOptions(jobs=2), t0=t0)
    assert result.stopped == "drained" and len(result.workloads) == 188


def test_bad_tas_config_is_one_line_exit_2(tmp_path):
    path = _write(tmp_path, MINI.replace("tasConstraint: balanced", "tasConstraint: packed"))
    p = run_subprocess("simulate", "--generator", path, "-o", "json")
    assert p.returncode == 2 and p.stdout == ""
    line, col = _line_col(MINI.replace("tasConstraint: balanced", "tasConstraint: packed"), "packed")
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}:{line}:{col}:" in lines[0] and "tasConstraint" in lines[0]
