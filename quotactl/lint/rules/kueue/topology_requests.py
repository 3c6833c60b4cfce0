"""Topology-aware scheduling requests against the input's Topologies: the pod-set topology
annotations Kueue's job webhooks validate, levels a request names that its ClusterQueue's TAS
flavors lack, and Nodes a TAS flavor leaves out for want of a level label.

A level is checked only when it can be resolved: the Workload's (or job's) LocalQueue and
ClusterQueue, every flavor of that ClusterQueue and the Topology of each TAS flavor are in the input."""

from __future__ import annotations

import json
import re

from quotactl.lint.k8s_checks import label_key_errors, quote
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import podsets
from quotactl.lint.rules.kueue.crossref_helpers import pending
from quotactl.lint.rules.kueue.job_helpers import derived_workloads, generic_jobs
from quotactl.model.coerce import as_dict, as_list, str_map

# apis/kueue/v1beta2/topology_types.go
REQUIRED = "kueue.x-k8s.io/podset-required-topology"
PREFERRED = "kueue.x-k8s.io/podset-preferred-topology"
UNCONSTRAINED = "kueue.x-k8s.io/podset-unconstrained-topology"
SLICE_REQUIRED = "kueue.x-k8s.io/podset-slice-required-topology"
SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size"
SLICE_CONSTRAINTS = "kueue.x-k8s.io/podset-slice-required-topology-constraints"
GROUP_NAME = "kueue.x-k8s.io/podset-group-name"
GROUPED_SLICING = "TASGroupedPodSetSlicing"  # off: a pod-set group may not be sliced (kueue PR #15111)
ANNOTATIONS = ("metadata", "annotations")
GATE = "TopologyAwareScheduling"  # off: no flavor is a TAS flavor, and nothing here applies
_GO_BOOLS = frozenset({"1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"})
_INT = re.compile(r"^[+-]?[0-9]+$")  # strconv.ParseInt(s, 10, 32)'s syntax


# ---------------------------------------------------------------------- pod templates ---

def pod_templates(obj) -> list[tuple[tuple, dict]]:
    """(path, metadata) of each pod template of a job object: every mapping under ``spec`` with a
    ``metadata`` mapping and a ``spec.containers`` list (Job, JobSet, Kubeflow, Ray, LWS, ...), or the
    Pod's own metadata. Walked without recursion: a deep hostile document cannot overflow the stack."""
    if obj.kind == "Pod":
        return [((), as_dict(obj.data.get("metadata")))]
    out: list[tuple[tuple, dict]] = []
    stack: list[tuple[tuple, object]] = [(("spec",), obj.data.get("spec"))]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("metadata"), dict) and isinstance(as_dict(node.get("spec")).get("containers"), list):
                out.append((path, node["metadata"]))
                continue
            stack.extend((path + (k,), v) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return sorted(out, key=lambda t: [str(p) for p in t[0]])


def _int32(text: str) -> int | None:
    if not _INT.match(text):
        return None
    value = int(text)
    return value if -2**31 <= value < 2**31 else None


def annotation_findings(meta: dict, base: tuple, gates):
    """``jobframework.ValidateTASPodSetRequest``'s topology and slice checks, in its order and words."""
    notes = str_map(meta.get("annotations"))
    path = base + ANNOTATIONS
    if sum(k in notes for k in (REQUIRED, PREFERRED, UNCONSTRAINED)) > 1:
        yield Finding(path, f"must not contain more than one topology annotation: [{quote(REQUIRED)}, "
                            f"{quote(PREFERRED)}, {quote(UNCONSTRAINED)}]",
                      hint="Keep one of required, preferred and unconstrained topology.")
    for key in (REQUIRED, PREFERRED, SLICE_REQUIRED):
        if key in notes:
            for err in label_key_errors(notes[key]):
                yield Finding(path + (key,), f"Invalid value: {quote(notes[key])}: {err}", value=True)
    grouped_slicing = gates.enabled(GROUPED_SLICING)
    if GROUP_NAME in notes and not grouped_slicing:
        for key in (SLICE_SIZE, SLICE_REQUIRED):
            if key in notes:
                yield _group_sliced(path, key)
    if UNCONSTRAINED in notes and notes[UNCONSTRAINED] not in _GO_BOOLS:
        yield Finding(path + (UNCONSTRAINED,), f"Invalid value: {quote(notes[UNCONSTRAINED])}: must be a boolean "
                                               "value", value=True)
    if SLICE_SIZE in notes:
        size = _int32(notes[SLICE_SIZE])
        if size is None:
            yield Finding(path + (SLICE_SIZE,), f"Invalid value: {quote(notes[SLICE_SIZE])}: must be a numeric value",
                          value=True)
        elif size < 1:
            yield Finding(path + (SLICE_SIZE,), f"Invalid value: {quote(notes[SLICE_SIZE])}: must be greater than or "
                                                "equal to 1", value=True)
    if SLICE_REQUIRED in notes and SLICE_SIZE not in notes:
        yield Finding(path + (SLICE_SIZE,), f"must be set when '{SLICE_REQUIRED}' is specified", type="Required",
                      hint=f"Add {SLICE_SIZE}: the number of pods per slice.")
    if SLICE_SIZE in notes and SLICE_REQUIRED not in notes:
        yield Finding(path + (SLICE_SIZE,), f"may not be set when '{SLICE_REQUIRED}' is not specified",
                      type="Forbidden", hint=f"Add {SLICE_REQUIRED}, or remove {SLICE_SIZE}.")
    # validateSliceRequiredTopologyConstraintsAnnotation, with the multi-layer gate on
    if (SLICE_CONSTRAINTS in notes and GROUP_NAME in notes and not grouped_slicing
            and gates.enabled("TASMultiLayerTopology")):
        yield _group_sliced(path, SLICE_CONSTRAINTS)


def _group_sliced(path: tuple, key: str) -> Finding:
    """A sliced pod set in a pod-set group, with ``TASGroupedPodSetSlicing`` off."""
    return Finding(path + (GROUP_NAME,), f"may not be set when '{key}' is specified", type="Forbidden",
                   hint=f"Remove {GROUP_NAME} or the slice annotations (or enable {GROUPED_SLICING}, on by "
                        "default since Kueue v0.20).")


@rule(
    code="KQ606", name="job-invalid-topology-annotations", severity="error", layer="webhook", scope="cluster",
    summary="A job's pod-template topology annotations break Kueue's webhook rules",
    doc=RuleDoc(
        what="The topology-aware scheduling annotations on a job's pod templates (and on a plain Pod): at most one "
             f"of {REQUIRED}, {PREFERRED} and {UNCONSTRAINED}; the topology values valid label keys; "
             f"{UNCONSTRAINED} a boolean; {SLICE_SIZE} a whole number of at least 1; {SLICE_REQUIRED} and "
             f"{SLICE_SIZE} set together; with {GROUPED_SLICING} off, no {GROUP_NAME} on a sliced pod "
             "template.",
        why="Kueue's job webhooks reject the job when it is created or updated; nothing is submitted.",
        fix="Keep one topology mode per pod template, and give a slice topology together with a positive slice "
            "size.",
        bad=f"template:\n  metadata:\n    annotations:\n      {SLICE_REQUIRED}: cloud.com/rack\n",
        good=f"template:\n  metadata:\n    annotations:\n      {SLICE_REQUIRED}: cloud.com/rack\n"
             f"      {SLICE_SIZE}: \"4\"\n",
        source="kueue pkg/controller/jobframework/tas_validation.go ValidateTASPodSetRequest",
    ),
)
def check_job_topology_annotations(ctx):
    for job in generic_jobs(ctx):
        for base, meta in pod_templates(job.obj):
            for f in annotation_findings(meta, base, ctx.gates):
                yield Finding(f.path, f"{job.ref}: {f.message}", type=f.type, hint=f.hint, subject=job.obj,
                              value=f.value)


# --------------------------------------------------------------------------- levels ---

def _request_levels(tr: dict, base: tuple) -> list[tuple[tuple, str]]:
    """(path, level) of each level a Workload pod set's topologyRequest names."""
    out = [(base + (k,), tr[k]) for k in ("required", "preferred", "podSetSliceRequiredTopology")
           if isinstance(tr.get(k), str)]
    for i, c in enumerate(as_list(tr.get("podsetSliceRequiredTopologyConstraints"))):
        if isinstance(as_dict(c).get("topology"), str):
            out.append((base + ("podsetSliceRequiredTopologyConstraints", i, "topology"), c["topology"]))
    return out


def _annotation_levels(meta: dict, base: tuple) -> list[tuple[tuple, str]]:
    """(path, level) of each level a pod template's topology annotations name."""
    notes = str_map(meta.get("annotations"))
    out = [(base + ANNOTATIONS + (k,), notes[k]) for k in (REQUIRED, PREFERRED, SLICE_REQUIRED) if notes.get(k)]
    if SLICE_CONSTRAINTS in notes:
        try:
            layers = json.loads(notes[SLICE_CONSTRAINTS])
        except ValueError:
            layers = []
        out.extend((base + ANNOTATIONS + (SLICE_CONSTRAINTS,), as_dict(c)["topology"]) for c in as_list(layers)
                   if isinstance(as_dict(c).get("topology"), str))
    return out


def tas_topologies(ctx, cq) -> dict | None:
    """flavor name -> Topology of each TAS flavor of the ClusterQueue; None when a flavor or a
    Topology is not in the input (or the ClusterQueue has no TAS flavor): nothing to compare with."""
    out = {}
    for name in dict.fromkeys(cq.flavor_names):
        rf = ctx.cluster.resource_flavors.get(name)
        if rf is None:
            return None
        if rf.topology_name is None:
            continue
        topology = ctx.cluster.topologies.get(rf.topology_name)
        if topology is None:
            return None
        out[name] = topology
    return out or None


def _missing_level(level: str, cq, flavors: dict) -> str | None:
    """Why no TAS flavor of the ClusterQueue can hold ``level`` (None when one can): Kueue's
    flavor assigner's words for each flavor it skips."""
    if any(level in t.levels for t in flavors.values()):
        return None
    skipped = "; ".join(f"Flavor {quote(f)} does not contain the requested level (Topology {t.name}: "
                        f"{', '.join(lv for lv in t.levels if lv) or 'no levels'})" for f, t in flavors.items())
    return (f"topology level {level!r} is in no Topology of ClusterQueue {cq.name}'s TAS flavors, so it stays "
            f"pending: {skipped}")


@rule(
    code="KQ521", name="topology-level-not-found", severity="warning", layer="reference", scope="cluster",
    gate=GATE,
    summary="A pod set asks for a topology level no TAS flavor of its ClusterQueue has",
    doc=RuleDoc(
        what="The levels a pending Workload's spec.podSets[].topologyRequest names (required, preferred, "
             "podSetSliceRequiredTopology, podsetSliceRequiredTopologyConstraints), and those of a job's pod-template "
             f"annotations ({REQUIRED}, {PREFERRED}, {SLICE_REQUIRED}, {SLICE_CONSTRAINTS}), against the Topologies of "
             "the TAS flavors (spec.topologyName) of its LocalQueue's ClusterQueue. Checked only when the "
             "ClusterQueue, its flavors and their Topologies are all in the input.",
        why="Kueue skips every flavor whose Topology lacks the level (\"Flavor ... does not contain the requested "
            "level\"): with none left the Workload stays pending however much quota is free.",
        fix="Name a nodeLabel of the flavor's Topology (spec.levels[].nodeLabel), or add the level to the Topology.",
        bad="# Topology levels: [cloud.com/block, kubernetes.io/hostname]\n"
            "topologyRequest:\n  required: cloud.com/rack\n",
        good="# Topology levels: [cloud.com/block, kubernetes.io/hostname]\n"
             "topologyRequest:\n  required: cloud.com/block\n",
        source=("kueue pkg/scheduler/flavorassigner/tas_flavorassigner.go checkPodSetAndFlavorMatchForTAS; "
                "pkg/cache/scheduler/tas_flavor_snapshot.go HasLevel"),
    ),
)
def check_topology_levels(ctx):
    if not ctx.cluster.topologies or not ctx.gates.enabled(GATE):
        return
    for wl in ctx.cluster.workloads.values():
        if not pending(wl) or (cq := ctx.cluster.cluster_queue_for(wl)) is None:
            continue
        requests = [lv for i, ps in podsets(wl) if isinstance(ps.get("topologyRequest"), dict)
                    for lv in _request_levels(ps["topologyRequest"], ("spec", "podSets", i, "topologyRequest"))]
        yield from _level_findings(ctx, cq, requests, wl, f"Workload {wl.namespace}/{wl.name}")
    yield from _job_level_findings(ctx)


def _job_level_findings(ctx):
    derived = {id(d.job) for d in derived_workloads(ctx)}  # jobs Kueue would turn into a Workload
    for job in generic_jobs(ctx):
        if id(job.obj) not in derived or not job.queue_name():
            continue
        cq = ctx.cluster.cluster_queue_behind(job.namespace, job.queue_name())
        if cq is None:
            continue
        requests = [lv for base, meta in pod_templates(job.obj) for lv in _annotation_levels(meta, base)]
        yield from _level_findings(ctx, cq, requests, job.obj, job.ref)


def _level_findings(ctx, cq, requests: list, subject, who: str):
    flavors = tas_topologies(ctx, cq) if requests else None
    if flavors is None:
        return
    for path, level in requests:
        why = _missing_level(level, cq, flavors)
        if why is not None:
            yield Finding(path, f"{who}: {why}", type=None, subject=subject, value=True,
                          hint="Name a level of the Topology (" + ", ".join(sorted({t.name for t in flavors.values()}))
                               + "), or add the level to it.")


# ---------------------------------------------------------------------------- nodes ---

@rule(
    code="KQ522", name="node-missing-topology-level", severity="warning", layer="runtime", scope="cluster",
    gate=GATE,
    summary="A Node of a TAS flavor lacks a label of its Topology's levels",
    doc=RuleDoc(
        what="Every Node of the input whose labels match a TAS flavor's spec.nodeLabels must carry the nodeLabel of "
             "each level of the flavor's Topology (checked when Nodes, the flavor and its Topology are in the input).",
        why="Kueue builds a TAS flavor's domains only from Nodes that have every level label: such a Node is left "
            "out silently, its capacity is never offered to topology-aware Workloads.",
        fix="Label the Node with each level (kubectl label node <name> <level>=<value>), or change the flavor's "
            "nodeLabels so it no longer selects the Node.",
        bad="# Topology levels: [cloud.com/rack, kubernetes.io/hostname]\nkind: Node\nmetadata:\n  labels:\n"
            "    pool: tas\n    kubernetes.io/hostname: n1\n",
        good="kind: Node\nmetadata:\n  labels:\n    pool: tas\n    cloud.com/rack: r1\n"
             "    kubernetes.io/hostname: n1\n",
        source=("kueue pkg/util/tas/node.go NodeMatchesFlavor; pkg/cache/scheduler/tas_nodes_cache.go find"),
    ),
)
def check_node_levels(ctx):
    flavors = [(rf, ctx.cluster.topologies[rf.topology_name]) for rf in ctx.cluster.resource_flavors.values()
               if rf.topology_name in ctx.cluster.topologies]
    if not flavors or not ctx.gates.enabled(GATE):
        return
    for node in ctx.nodes:
        labels = str_map(node.metadata.get("labels"))
        for rf, topology in flavors:
            if any(labels.get(k) != v for k, v in rf.node_labels.items()):
                continue
            missing = [lv for lv in topology.levels if lv and lv not in labels]
            if missing:
                yield Finding(("metadata", "labels") if labels else ("metadata",),
                              f"Node {node.name} matches ResourceFlavor {rf.name}'s nodeLabels but has no "
                              f"{', '.join(missing)} label (levels of Topology {topology.name}): Kueue leaves it "
                              "out of the flavor's topology and places no topology-aware pod on it",
                              type=None, subject=node,
                              hint=f"Label the Node with {', '.join(missing)}, or narrow the flavor's nodeLabels.")
