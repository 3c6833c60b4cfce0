"""Topology-aware scheduling: consistency of a v1beta2 ``topologyAssignment`` (kueue
``apis/kueue/v1beta2/workload_types.go``).  v1beta1 used ``domains[{values, count}]`` with no CEL rules."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.coerce import as_dict, as_int, as_list

WL = ("Workload",)
_ONE_OF = "exactly one of the fields in [universal individual] must be set"


@rule(
    code="KQ421", name="topology-assignment-consistency", severity="error", layer="cel", kinds=WL,
    summary="topologyAssignment slices disagree with their levels or domain counts",
    doc=RuleDoc(
        what="CEL rules on status.admission.podSetAssignments[k].topologyAssignment (v1beta2): every slice "
             "has one valuesPerLevel entry per level; podCounts.individual and valuesPerLevel[].individual.roots "
             "have domainCount entries; each valuesPerLevel entry and podCounts sets exactly one of universal "
             "and individual.",
        why="The API server rejects the status update (422 Invalid), so a hand-written or migrated Workload "
            "snapshot with such an assignment cannot be applied, and Kueue could not have produced it.",
        fix="Regenerate the status with kubectl get -o yaml from the cluster, or make the slice lengths agree "
            "with levels and domainCount.",
        bad="topologyAssignment:\n  levels: [rack, host]\n  slices:\n  - domainCount: 2\n"
            "    valuesPerLevel:\n    - universal: r1\n    podCounts: {universal: 1}\n",
        good="topologyAssignment:\n  levels: [rack, host]\n  slices:\n  - domainCount: 2\n"
             "    valuesPerLevel:\n    - universal: r1\n    - individual: {roots: [h1, h2]}\n"
             "    podCounts: {universal: 1}\n",
        source=("kueue apis/kueue/v1beta2/workload_types.go TopologyAssignment (CEL "
                "x-kubernetes-validations)"),
    ),
)
def check_topology_assignment(wl, ctx):
    if wl.version != "v1beta2":
        return
    adm = raw(wl, ("status", "admission"))
    if not isinstance(adm, dict):
        return
    for k, psa in enumerate(as_list(adm.get("podSetAssignments"))):
        ta = as_dict(as_dict(psa).get("topologyAssignment"))
        if not ta:
            continue
        base = ("status", "admission", "podSetAssignments", k, "topologyAssignment")
        levels = as_list(ta.get("levels"))
        for i, raw_slice in enumerate(as_list(ta.get("slices"))):
            yield from _slice_findings(as_dict(raw_slice), base, i, len(levels))


def _slice_findings(sl: dict, base: tuple, i: int, n_levels: int):
    path = base + ("slices", i)
    domains = as_int(sl.get("domainCount"))
    values = as_list(sl.get("valuesPerLevel"))
    if len(values) != n_levels:
        yield Finding(base, "valuesPerLevel must have the same length as the number of levels in this "
                            f"TopologyAssignment (slices[{i}] has {len(values)}, levels has {n_levels})")
    for j, v in enumerate(values):
        v = as_dict(v)
        if ("universal" in v) == ("individual" in v):
            yield Finding(path + ("valuesPerLevel", j), _ONE_OF)
        roots = as_dict(v.get("individual")).get("roots")
        if isinstance(roots, list) and domains is not None and len(roots) != domains:
            yield Finding(path, "valuesPerLevel.individual, if set, must have roots of length equal to "
                                f"domainCount of this TopologyAssignmentSlice (valuesPerLevel[{j}] has "
                                f"{len(roots)} roots, domainCount is {domains})")
    counts = sl.get("podCounts")
    if isinstance(counts, dict):
        if ("universal" in counts) == ("individual" in counts):
            yield Finding(path + ("podCounts",), _ONE_OF)
        individual = counts.get("individual")
        if isinstance(individual, list) and domains is not None and len(individual) != domains:
            yield Finding(path, "podCounts.individual must have length equal to domainCount "
                                f"({len(individual)} counts, domainCount is {domains})")
