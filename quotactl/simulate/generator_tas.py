"""The topology-aware scheduling (TAS) part of Kueue's scheduler-performance generator config.

Kueue's TAS config (``test/performance/scheduler/configs/tas/generator.yaml``) adds, upstream in
``runner/generator/topology_generator.go`` and ``generator.go``:

- ``topology``: a Topology (``generateTopologyResource``: one level per entry, its ``nodeLabel``)
  and the product of the levels' counts as Nodes (``generateTopologyNodes``): a node per leaf of
  the hierarchy, labelled with the value ``<level name>-<i>`` at every level, plus
  ``tas-node-group=tas`` and the cleanup label, Ready, with allocatable cpu and memory from the
  last level's ``capacity`` (default 96 and 256Gi) and 110 pods. Its name is built from each
  value's first letter and number (``buildNodeName``: ``node-b0-r2-n15``);
- ``resourceFlavor.topologyName`` / ``nodeLabel``: the flavor names the Topology and selects the
  nodes by ``<nodeLabel>: tas`` (``generateResourceFlavor``);
- per workload template ``podCount``, ``tasConstraint``, ``tasLevel``, ``sliceSize``: with a
  ``tasLevel`` the Workload has one pod set ``main`` of ``podCount`` pods (default 1) asking for
  ``request`` cpu each, with the topology request of its constraint: ``required`` or ``preferred``
  at the level, ``balanced`` as a slice-required topology at the level with ``sliceSize`` pods per
  slice (``generateWlSet``).

Upstream ignores what does not fit together (a constraint without a level, a level the topology
lacks, a flavor selecting a label no node carries); here each is an error at its position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quotactl.load.document import format_path
from quotactl.model.validation import qualified_name_errors

INT32_MAX = 2**31 - 1
NODE_GROUP_LABEL = "tas-node-group"  # topology_generator.go: tasNodeGroupLabel
NODE_GROUP_VALUE = "tas"  # the value of that label on every node, and of the flavor's nodeLabel
DEFAULT_CPU, DEFAULT_MEMORY, NODE_PODS = "96", "256Gi", "110"  # generateTopologyNodes, generateNodesRecursive
CONSTRAINTS = ("required", "preferred", "balanced")  # generateWlSet's switch
MAX_NODES = 100_000  # 20x the 5,000-node clusters the issue plans for; a node costs a few kB
MIN_LEVELS = 2  # generateTopologyNodes: "topology must have at least 2 levels"

TOPOLOGY_KEYS = {"name": "required", "levels": "required"}
LEVEL_KEYS = {"name": "required", "count": "required", "nodeLabel": "required", "capacity": "optional"}
CAPACITY_KEYS = {"cpu": "optional", "memory": "optional"}
# buildNodeName keeps a value's first letter and the part after its first '-': a level name with
# a '-' of its own would give two nodes one name (and the second Create fails upstream).
_LEVEL_NAME = re.compile(r"[a-z0-9]+\Z")


@dataclass(frozen=True)
class Level:
    name: str
    count: int
    node_label: str


@dataclass(frozen=True)
class TopologyConfig:
    name: str
    levels: tuple[Level, ...]
    cpu: str
    memory: str
    path: tuple

    @property
    def node_labels(self) -> tuple[str, ...]:
        return tuple(level.node_label for level in self.levels)

    @property
    def node_count(self) -> int:
        total = 1
        for level in self.levels:
            total *= level.count
        return total


@dataclass(frozen=True)
class TASRequest:
    """A template's TAS fields: its pods and their topology request (``constraint`` None: the
    pod set carries no topology request, as upstream when ``tasConstraint`` is empty)."""

    pod_count: int
    level: str
    constraint: str | None
    slice_size: int | None


# ------------------------------------------------------------------------------ reading ---

def read_topology(reader, path: tuple) -> TopologyConfig:
    """``reader``: generator._Reader (positions and typed values of the document)."""
    reader.mapping(path, TOPOLOGY_KEYS, "topology")
    name = reader.class_name(path + ("name",))
    items = reader.sequence(path + ("levels",), non_empty=True)
    if len(items) < MIN_LEVELS:
        raise reader.fail(path + ("levels",), f"{format_path(path + ('levels',))} has {len(items)} level; Kueue's "
                                              f"generator needs at least {MIN_LEVELS} (the nodes' and one above)")
    levels, cpu, memory = [], DEFAULT_CPU, DEFAULT_MEMORY
    seen: dict[str, int] = {}
    for i in range(len(items)):
        lp = path + ("levels", i)
        reader.mapping(lp, LEVEL_KEYS, "topology level")
        level_name = reader.string(lp + ("name",))
        if not _LEVEL_NAME.match(level_name):
            raise reader.fail(lp + ("name",), f"{format_path(lp + ('name',))} {level_name!r} must be lower-case "
                                              "letters and digits: Kueue's generator builds node names and label "
                                              "values from it (buildNodeName)")
        label = reader.string(lp + ("nodeLabel",))
        problem = label_key_problem(label)
        if problem:
            raise reader.fail(lp + ("nodeLabel",), f"{format_path(lp + ('nodeLabel',))} {label!r} {problem}")
        if label in seen:
            raise reader.fail(lp + ("nodeLabel",), f"{format_path(lp + ('nodeLabel',))} {label!r} is already the "
                                                   f"label of levels[{seen[label]}]; a Topology's levels are unique")
        seen[label] = i
        levels.append(Level(level_name, reader.integer(lp + ("count",), 1, MAX_NODES), label))
        if reader.present(lp + ("capacity",)) and reader.get(lp + ("capacity",)) is not None:
            if i != len(items) - 1:
                raise reader.fail(lp + ("capacity",), f"{format_path(lp + ('capacity',))}: only the last level's "
                                                      "capacity is read (it is the nodes')", value=False)
            reader.mapping(lp + ("capacity",), CAPACITY_KEYS, "capacity")
            cpu = reader.quantity(lp + ("capacity", "cpu"), DEFAULT_CPU)
            memory = reader.quantity(lp + ("capacity", "memory"), DEFAULT_MEMORY)
    topology = TopologyConfig(name, tuple(levels), cpu, memory, path)
    _check_node_count(reader, topology)
    return topology


def label_key_problem(key: str) -> str | None:
    """Why ``key`` is not a label key (``[prefix/]name``, Kubernetes' IsQualifiedName), or None."""
    errors = qualified_name_errors(key)
    if not errors:
        return None
    if all(e.startswith("prefix part") for e in errors):
        return "has a prefix that is not a DNS subdomain"
    return "is not a label key (a name of up to 63 letters, digits, '-', '_' and '.', with an optional prefix/)"


def _check_node_count(reader, topology: TopologyConfig) -> None:
    if topology.node_count <= MAX_NODES:
        return
    widest = max(range(len(topology.levels)), key=lambda i: topology.levels[i].count)
    chain = " x ".join(f"{level.count:,}" for level in topology.levels)
    raise reader.fail(topology.path + ("levels", widest, "count"),
                      f"this topology generates {topology.node_count:,} Nodes ({chain}), more than the "
                      f"{MAX_NODES:,} simulate accepts")


def check_flavor(reader, path: tuple | None, topology: TopologyConfig | None) -> None:
    """The flavor's ``topologyName`` and ``nodeLabel`` against the topology (``path``: the
    resourceFlavor mapping, None when the config has none)."""
    flavor = reader.get(path) if path is not None else {}
    topology_name = flavor.get("topologyName")
    node_label = flavor.get("nodeLabel")
    if topology is None:
        if topology_name is not None:
            raise reader.fail(path + ("topologyName",), f"resourceFlavor.topologyName {topology_name!r} names a "
                                                        "topology, but the config has no 'topology'")
        if node_label is not None:
            raise reader.fail(path + ("nodeLabel",), "resourceFlavor.nodeLabel is read only with a topology "
                                                     "(topologyName); Kueue's generator ignores it otherwise")
        return
    if topology_name is None:
        where = path if path is not None else topology.path
        raise reader.fail(where, f"the topology {topology.name!r} is used only by a flavor naming it: set "
                                 f"resourceFlavor.topologyName: {topology.name}", value=False)
    reader.string(path + ("topologyName",))
    if topology_name != topology.name:
        raise reader.fail(path + ("topologyName",), f"resourceFlavor.topologyName {topology_name!r} is not the "
                                                    f"config's topology ({topology.name!r})")
    if node_label is None or node_label == "":
        raise reader.fail(path, "resourceFlavor.nodeLabel is required when TAS is enabled (Kueue's generator: "
                                f"use {NODE_GROUP_LABEL})", value=False)
    reader.string(path + ("nodeLabel",))
    if node_label != NODE_GROUP_LABEL:
        raise reader.fail(path + ("nodeLabel",), f"resourceFlavor.nodeLabel {node_label!r} selects no node: "
                                                 f"Kueue's generator labels every node {NODE_GROUP_LABEL}="
                                                 f"{NODE_GROUP_VALUE}")


def read_request(reader, path: tuple, topology: TopologyConfig | None) -> TASRequest | None:
    """A template's TAS fields (None: no ``tasLevel``, a plain one-pod Workload)."""
    pod_count = reader.integer(path + ("podCount",), 0, INT32_MAX) or 1  # generateWlSet: 0 means 1
    level = reader.get(path + ("tasLevel",)) if reader.present(path + ("tasLevel",)) else None
    constraint = reader.get(path + ("tasConstraint",)) if reader.present(path + ("tasConstraint",)) else None
    has_size = reader.present(path + ("sliceSize",)) and reader.get(path + ("sliceSize",)) is not None
    if level is None or level == "":
        for key, given in (("tasConstraint", constraint not in (None, "")), ("sliceSize", has_size)):
            if given:
                raise reader.fail(path + (key,), f"{format_path(path + (key,))} needs tasLevel (Kueue's generator "
                                                 "builds a topology request only for a template with a level)",
                                  value=False)
        return None
    level = reader.string(path + ("tasLevel",))
    if topology is None:
        raise reader.fail(path + ("tasLevel",), f"{format_path(path + ('tasLevel',))} needs a 'topology' in the "
                                                "config")
    if level not in topology.node_labels:
        raise reader.fail(path + ("tasLevel",), f"{format_path(path + ('tasLevel',))} {level!r} is not a level of "
                                                f"topology {topology.name!r} ({', '.join(topology.node_labels)})")
    if constraint == "":
        constraint = None
    if constraint is not None and constraint not in CONSTRAINTS:
        raise reader.fail(path + ("tasConstraint",), f"{format_path(path + ('tasConstraint',))} must be one of "
                                                     f"{', '.join(CONSTRAINTS)}, not {constraint!r}")
    slice_size = None
    if constraint == "balanced":
        if not has_size:
            raise reader.fail(path, f"{format_path(path)}: tasConstraint balanced needs sliceSize (Kueue's Workload "
                                    "webhook: podSetSliceSize must be set with podSetSliceRequiredTopology)",
                              value=False)
        slice_size = reader.integer(path + ("sliceSize",), 1, INT32_MAX)
    elif has_size:
        raise reader.fail(path + ("sliceSize",), f"{format_path(path + ('sliceSize',))} is read only with "
                                                 "tasConstraint balanced", value=False)
    return TASRequest(pod_count, level, constraint, slice_size)


# ---------------------------------------------------------------------------- generation ---

def topology_objects(topology: TopologyConfig, api: str, cleanup_label: str):
    """The Nodes, then the Topology, in ``Generate``'s order."""
    allocatable = {"cpu": topology.cpu, "memory": topology.memory, "pods": NODE_PODS}
    conditions = [{"type": "Ready", "status": "True"}]
    for values in _leaves(topology.levels):
        labels = {cleanup_label: "true", NODE_GROUP_LABEL: NODE_GROUP_VALUE}
        labels.update(zip(topology.node_labels, values, strict=True))
        yield {"apiVersion": "v1", "kind": "Node", "metadata": {"name": node_name(values), "labels": labels},
               "status": {"allocatable": allocatable, "conditions": conditions}}
    yield {"apiVersion": api, "kind": "Topology",
           "metadata": {"name": topology.name, "labels": {cleanup_label: "true"}},
           "spec": {"levels": [{"nodeLabel": label} for label in topology.node_labels]}}


def _leaves(levels: tuple[Level, ...]):
    """Every node's label values, depth first (``generateNodesRecursive``)."""
    if not levels:
        yield ()
        return
    first, rest = levels[0], levels[1:]
    tails = list(_leaves(rest))
    for i in range(first.count):
        value = f"{first.name}-{i}"
        for tail in tails:
            yield (value, *tail)


def node_name(values: tuple[str, ...]) -> str:
    """``buildNodeName``: ("block-0", "rack-2", "node-15") -> "node-b0-r2-n15"."""
    return "node" + "".join(f"-{v[0]}{v.split('-')[1]}" for v in values)


def flavor_spec(topology: TopologyConfig | None) -> dict:
    if topology is None:
        return {}
    return {"nodeLabels": {NODE_GROUP_LABEL: NODE_GROUP_VALUE}, "topologyName": topology.name}


def topology_request(request: TASRequest) -> dict | None:
    """The pod set's ``topologyRequest`` (PodSetWrapper's Required/Preferred/SliceRequired/SliceSize)."""
    if request.constraint == "required":
        return {"required": request.level}
    if request.constraint == "preferred":
        return {"preferred": request.level}
    if request.constraint == "balanced":
        return {"podSetSliceRequiredTopology": request.level, "podSetSliceSize": request.slice_size}
    return None
