"""Counterfactuals: the smallest change that would let Kueue admit a pending workload.

Each candidate change is computed on the quota tree (binary search on the number that matters)
and then verified by re-running Kueue's flavor assignment with the change applied: a change is
``verified`` only when the assignment becomes Fit.  Quota changes cover every flavor-resource
the workload is short of (several rounds when fixing one pod set reveals the next).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import Assignment, FlavorAssigner, InitialAssignment, Mode
from quotactl.kueue.quota import (
    ClusterQueueNode,
    QuotaChanges,
    QuotaNode,
    ResourceQuota,
    Snapshot,
    cq_available,
    cq_available_with,
    with_quotas,
)

MAX_ROUNDS = 4


@dataclass(frozen=True)
class Adjustment:
    """One number to change: ``field`` of ``object`` for a flavor-resource (amounts)."""

    object: str  # e.g. ClusterQueue/team-a, Cohort/research
    field: str  # nominalQuota | borrowingLimit
    flavor: str
    resource: str
    current: int | None
    proposed: int


@dataclass(frozen=True)
class Change:
    kind: str  # nominalQuota | borrowingLimit | cohortQuota | podCount | toleration | nodeSelector | resourceGroup | config
    description: str
    verified: bool = False  # Kueue's assignment is Fit with this change
    object: str | None = None  # e.g. ClusterQueue/team-a
    flavor: str | None = None
    resource: str | None = None
    current: int | None = None
    proposed: int | None = None
    adjustments: tuple[Adjustment, ...] = ()


def _targets(a: Assignment, cq: ClusterQueueNode) -> list[tuple[tuple, int]]:
    """(fr, needed value) the workload is short of, on the flavor Kueue would use: the chosen
    flavor of a Preempt pod set, else the first flavor of the group that passed eligibility."""
    out: dict[tuple, int] = {}
    for ps in a.pod_sets:
        if ps.is_fit:
            continue
        chosen = {fa.flavor for fa in ps.flavors.values()}
        first_by_group: dict[int, str] = {}
        for att in ps.attempts:
            if att.eligibility is None and att.resource_group not in first_by_group:
                first_by_group[att.resource_group] = att.flavor
        for att in ps.attempts:
            if att.eligibility is not None:
                continue
            if chosen:
                if att.flavor not in chosen:
                    continue
            elif first_by_group.get(att.resource_group) != att.flavor:
                continue
            for c in att.checks:
                if c.reason is not None:
                    fr = (c.flavor, c.resource)
                    out[fr] = max(out.get(fr, 0), c.value)
    return list(out.items())


def _search(lo: int, hi: int, ok) -> int | None:
    """Smallest x in [lo, hi] with ok(x) (ok monotonic), None if ok(hi) is false."""
    if not ok(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _fits_fr(cq: ClusterQueueNode, fr: tuple, value: int) -> bool:
    return value <= cq_available(cq, fr)


def _min_quota_change(snapshot: Snapshot, cq: ClusterQueueNode, node: QuotaNode, fr: tuple, value: int,
                      field: str, overrides: QuotaChanges) -> int | None:
    """Smallest new value of ``field`` (nominal / borrowing_limit) on ``node`` so that ``value``
    of ``fr`` fits the ClusterQueue's available quota, with ``overrides`` already applied."""
    base = overrides.get((node, fr)) or node.quotas.get(fr) or ResourceQuota(0)
    current = getattr(base, field) or 0
    hi = current + value + sum(max(0, v) for v in cq.usage.values()) + cq.subtree_quota.get(fr, 0) + \
        max(0, node.usage.get(fr, 0)) + 1

    def ok(x: int) -> bool:
        rq = ResourceQuota(**{**base.__dict__, field: x})
        changes = {**overrides, (node, fr): rq}
        available = cq_available_with(snapshot, cq.name, fr, changes)
        if available is not None:
            return value <= available
        view = with_quotas(snapshot, changes)
        return _fits_fr(view.cluster_queues[cq.name], fr, value)

    return _search(current, hi, ok)


def _assign_with(assigner: FlavorAssigner, overrides: QuotaChanges) -> Assignment:
    return assigner.on_snapshot(with_quotas(assigner.snapshot, overrides)).assign()


class QuotaPlan(NamedTuple):
    changes: QuotaChanges  # every quota to change together
    verified: bool  # Kueue's assignment is Fit with all of them


def _quota_plan(assigner: FlavorAssigner, start: Assignment, node_for, field: str) -> QuotaPlan:
    """Grow ``field`` on ``node_for(cq)`` fr by fr until the assignment fits (or rounds run out)."""
    cq = assigner.cq
    overrides: QuotaChanges = {}
    a = start
    for _ in range(MAX_ROUNDS):
        targets = _targets(a, cq)
        if not targets:
            break
        progressed = False
        for fr, value in targets:
            node = node_for(cq, fr)
            if node is None:
                continue
            x = _min_quota_change(assigner.snapshot, cq, node, fr, value, field, overrides)
            if x is None:
                continue
            base = overrides.get((node, fr)) or node.quotas.get(fr) or ResourceQuota(0)
            if (getattr(base, field) or 0) == x and (node, fr) in overrides:
                continue
            overrides[(node, fr)] = ResourceQuota(**{**base.__dict__, field: x})
            progressed = True
        if not progressed:
            break
        a = _assign_with(assigner, overrides)
        if a.representative_mode == Mode.Fit:
            return QuotaPlan(overrides, True)
    return QuotaPlan(overrides, False)


def _describe(plan: QuotaPlan, field: str, kind: str) -> list[Change]:
    """One change for the whole plan (all its adjustments are needed together)."""
    if not plan.changes:
        return []
    parts, adjustments = [], []
    api_field = "nominalQuota" if field == "nominal" else "borrowingLimit"
    for (node, fr), rq in plan.changes.items():
        flavor, res = fr
        old = node.quotas.get(fr)
        cur = getattr(old, field) if old is not None else None
        new = getattr(rq, field)
        obj = f"{'Cohort' if node.is_cohort else 'ClusterQueue'}/{node.name}"
        adjustments.append(Adjustment(obj, api_field, flavor, res, cur, new))
        if field == "nominal":
            delta = new - (cur or 0)
            where = f"ClusterQueue {node.name}" if not node.is_cohort else (
                f"cohort {node.name}" + (" (an implicit cohort: create a Cohort object with its own quota)"
                                         if getattr(node, "implicit", False) else ""))
            parts.append(f"{format_amount(res, delta)} more {res} of nominal quota for flavor {flavor} in {where} "
                         f"(nominalQuota {format_amount(res, cur or 0)} → {format_amount(res, new)})")
        else:
            parts.append(f"a borrowingLimit ≥ {format_amount(res, new)} for {res} in flavor {flavor} of "
                         f"ClusterQueue {node.name} (now {format_amount(res, cur) if cur is not None else 'unset'})")
    first = adjustments[0]
    single = len(adjustments) == 1
    return [Change(kind, " and ".join(parts), plan.verified, first.object,
                   first.flavor if single else None, first.resource if single else None,
                   first.current if single else None, first.proposed if single else None, tuple(adjustments))]


def _count_change(assigner: FlavorAssigner, a: Assignment) -> Change | None:
    """Fewer pods in the first pod set that does not fit."""
    failing = next((i for i, ps in enumerate(a.pod_sets) if not ps.is_fit), None)
    if failing is None:
        return None
    counts = [r.count for r in assigner.requests]
    full = counts[failing]
    if full <= 1:
        return None

    def ok(c: int) -> bool:
        trial = list(counts)
        trial[failing] = c
        return assigner.assign(tuple(trial)).representative_mode == Mode.Fit

    lo, hi, best = 1, full - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if ok(mid):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if best is None:
        return None
    name = a.pod_sets[failing].name
    return Change("podCount", f"run pod set {name} with {best} pod(s) instead of {full} (it would fit now)", True,
                  None, None, None, full, best)


def _eligibility_changes(assigner: FlavorAssigner, a: Assignment) -> list[Change]:
    out: list[Change] = []
    cq = assigner.cq
    for ps in a.pod_sets:
        if ps.is_fit:
            continue
        for res in ps.uncovered:
            out.append(Change("resourceGroup",
                              f"add {res} to a resource group of ClusterQueue {cq.name} (with quota), or remove the "
                              f"{res} request from pod set {ps.name}", False, f"ClusterQueue/{cq.name}", None, res))
        groups = {}
        for att in ps.attempts:
            groups.setdefault(att.resource_group, []).append(att)
        for atts in groups.values():
            if any(att.eligibility is None for att in atts):
                continue  # some flavor was eligible: quota is the problem there
            for att in atts:
                text = att.eligibility or ""
                if text.startswith("untolerated taint"):
                    flavor = assigner.snapshot.resource_flavors.get(att.flavor)
                    taint = next((t for t in (flavor.node_taints if flavor else ())
                                  if t.effect in ("NoSchedule", "NoExecute")), None)
                    tol = (f"{{key: {taint.key}, operator: {'Equal' if taint.value else 'Exists'}"
                           + (f", value: {taint.value}" if taint.value else "") + f", effect: {taint.effect}}}") \
                        if taint else "a matching toleration"
                    out.append(Change("toleration", f"add toleration {tol} to pod set {ps.name} to use flavor "
                                                    f"{att.flavor}", False, f"ResourceFlavor/{att.flavor}", att.flavor))
                elif "doesn't match node affinity" in text:
                    flavor = assigner.snapshot.resource_flavors.get(att.flavor)
                    labels = ", ".join(f"{k}={v}" for k, v in sorted((flavor.node_labels if flavor else {}).items()))
                    out.append(Change("nodeSelector", f"pod set {ps.name} selects nodes flavor {att.flavor} does not "
                                                      f"have (its nodeLabels: {labels or 'none'})", False,
                                      f"ResourceFlavor/{att.flavor}", att.flavor))
                elif text.endswith("not found"):
                    out.append(Change("config", f"create ResourceFlavor {att.flavor}", False,
                                      f"ResourceFlavor/{att.flavor}", att.flavor))
    return out


def find_changes(assigner: FlavorAssigner, init: InitialAssignment) -> list[Change]:
    """Candidate changes, verified ones first, then by kind."""
    a = init.full
    if a.representative_mode == Mode.Fit:
        return []
    changes: list[Change] = []
    changes.extend(_eligibility_changes(assigner, a))
    cq = assigner.cq

    changes.extend(_describe(_quota_plan(assigner, a, lambda c, fr: c, "nominal"), "nominal", "nominalQuota"))

    if cq.parent is not None:
        def bl_node(c: ClusterQueueNode, fr: tuple):
            q = c.quotas.get(fr)
            return c if q is not None and q.borrowing_limit is not None else None

        changes.extend(_describe(_quota_plan(assigner, a, bl_node, "borrowing_limit"), "borrowing_limit",
                                 "borrowingLimit"))
        changes.extend(_describe(_quota_plan(assigner, a, lambda c, fr: c.parent, "nominal"), "nominal",
                                 "cohortQuota"))

    count = _count_change(assigner, a)
    if count is not None:
        changes.append(count)
    order = {"nominalQuota": 0, "borrowingLimit": 1, "cohortQuota": 2, "podCount": 3}
    return sorted(changes, key=lambda c: (not c.verified, order.get(c.kind, 9)))
