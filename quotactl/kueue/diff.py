"""What a configuration change does to every workload (``quotactl diff``).

The same workloads are scheduled to the fixpoint twice, once under the base configuration and
once under the head configuration (``scheduler.schedule``; no rule of Kueue lives here), and the two
outcomes are compared: workloads that lose their admission or get preempted, workloads that
newly fit, capacity changes per ClusterQueue / cohort and usage before and after.  Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.quota import build_snapshot, potential_available
from quotactl.kueue.scheduler import ScheduleResult, schedule
from quotactl.model.kueue import KueueCluster

LOSES_ADMISSION = "losesAdmission"  # admitted at the base fixpoint, pending at the head one
NEWLY_PREEMPTED = "newlyPreempted"  # preempted under head, not under base
NEWLY_ADMITTED = "newlyAdmitted"  # pending at the base fixpoint, admitted at the head one
MOVED = "moved"  # admitted in both, on another ClusterQueue or other flavors
NO_LONGER_PREEMPTED = "noLongerPreempted"


@dataclass(frozen=True)
class WorkloadChange:
    workload: str
    kind: str
    before: str  # "admitted cq [flavors]" / "pending: reason"
    after: str
    detail: str = ""
    # topology-aware scheduling: pod set -> the topology assignment it holds at each fixpoint (None
    # on a non-TAS flavor); None when the workload is not admitted there or uses no TAS
    topology_before: dict | None = None
    topology_after: dict | None = None


@dataclass(frozen=True)
class CapacityChange:
    node: str
    kind: str  # ClusterQueue | Cohort
    flavor: str
    resource: str
    field: str  # nominal | borrowingLimit | lendingLimit | maxCapacity
    before: int | None
    after: int | None


@dataclass(frozen=True)
class UsageChange:
    node: str
    kind: str
    flavor: str
    resource: str
    before: int
    after: int


@dataclass(frozen=True)
class DiffResult:
    base: ScheduleResult
    head: ScheduleResult
    workloads: tuple[WorkloadChange, ...]
    capacity: tuple[CapacityChange, ...]
    usage: tuple[UsageChange, ...]
    only_in_base: tuple[str, ...]  # workloads only one side knows
    only_in_head: tuple[str, ...]
    shown: object = None  # selection.Shown when -n cut the report's workloads
    # workload -> its topology assignments at each side's fixpoint (``final_topologies``)
    topology_base: dict = field(default_factory=dict)
    topology_head: dict = field(default_factory=dict)

    def of_kind(self, *kinds: str) -> tuple[WorkloadChange, ...]:
        return tuple(w for w in self.workloads if w.kind in kinds)

    @property
    def evictions(self) -> tuple[WorkloadChange, ...]:
        return self.of_kind(NEWLY_PREEMPTED)

    @property
    def starvation(self) -> tuple[WorkloadChange, ...]:
        return self.of_kind(LOSES_ADMISSION)


def _state(r: ScheduleResult, key: str) -> str:
    if key in r.final_admitted:
        cq, fl = r.final_admitted[key]
        flv = "; ".join(f"{ps}: " + ", ".join(f"{res}={f}" for res, f in rs.items()) for ps, rs in fl.items())
        return f"admitted in {cq} ({flv})"
    for p in r.pending:
        if p.workload == key:
            return f"pending: {p.reason}"
    return "pending"


def final_topologies(r: ScheduleResult, cluster: KueueCluster) -> dict:
    """Workload -> the topology assignments it holds at the fixpoint (pod set -> assignment, None
    on a non-TAS flavor): its last admission of the run, or the input's admission when the run
    never readmitted it. Workloads not admitted there or using no TAS are left out."""
    last = {a.workload: a.topology for a in r.admitted}  # later admissions overwrite earlier ones
    out = {}
    for key in r.final_admitted:
        if key in last:
            held = last[key]
        else:
            wl = cluster.workloads.get(key)
            psas = wl.admission.pod_set_assignments if wl is not None and wl.admission is not None else ()
            held = {psa.name: psa.topology_assignment for psa in psas}
        if held and any(ta is not None for ta in held.values()):
            out[key] = held
    return out


def _domains(ta) -> str:
    """``x1 ×2, x2 ×1`` (``rack-a/x1`` on a multi-level assignment); ``-`` for no placement."""
    return ", ".join(f"{'/'.join(d.values)} ×{d.count}" for d in ta.domains) if ta is not None else "-"


def topology_change(before: dict | None, after: dict | None) -> str:
    """What changed in the topology assignments of a workload admitted on both sides ("" if
    nothing): per pod set, its domains before -> after (compared as multisets, as Kueue does)."""
    if not before or not after:
        return ""
    parts = []
    for ps in sorted(set(before) | set(after)):
        b, a = before.get(ps), after.get(ps)
        if _domain_set(b) != _domain_set(a):
            parts.append(f"topology {ps}: {_domains(b)} -> {_domains(a)}")
    return "; ".join(parts)


def _domain_set(ta) -> tuple | None:
    return None if ta is None else (ta.levels, tuple(sorted((d.values, d.count) for d in ta.domains)))


def _pending_message(r: ScheduleResult, key: str) -> str:
    return next((p.message for p in r.pending if p.workload == key), "")


def _capacity(base: KueueCluster, bopt: EngineOptions, head: KueueCluster, hopt: EngineOptions
              ) -> tuple[CapacityChange, ...]:
    sb, sh = build_snapshot(base, bopt), build_snapshot(head, hopt)
    out: list[CapacityChange] = []
    for kind, nb, nh in (("ClusterQueue", sb.cluster_queues, sh.cluster_queues), ("Cohort", sb.cohorts, sh.cohorts)):
        for name in sorted(set(nb) | set(nh)):
            a, b = nb.get(name), nh.get(name)
            frs = set(a.quotas if a else ()) | set(b.quotas if b else ())
            for fr in sorted(frs, key=lambda f: (f[1], f[0])):
                qa = a.quotas.get(fr) if a else None
                qb = b.quotas.get(fr) if b else None
                for attr in ("nominal", "borrowing_limit", "lending_limit"):
                    va = getattr(qa, attr) if qa else None
                    vb = getattr(qb, attr) if qb else None
                    if va != vb:
                        camel = {"nominal": "nominal", "borrowing_limit": "borrowingLimit",
                                 "lending_limit": "lendingLimit"}[attr]
                        out.append(CapacityChange(name, kind, fr[0], fr[1], camel, va, vb))
                if kind == "ClusterQueue":
                    pa = potential_available(a, fr) if a else None
                    pb = potential_available(b, fr) if b else None
                    if pa != pb:
                        out.append(CapacityChange(name, kind, fr[0], fr[1], "maxCapacity", pa, pb))
            if (a is None) != (b is None):
                out.append(CapacityChange(name, kind, "*", "*", "exists", int(a is not None), int(b is not None)))
    return tuple(out)


def diff(base: KueueCluster, base_options: EngineOptions, head: KueueCluster, head_options: EngineOptions, *,
         max_cycles: int = 10_000) -> DiffResult:
    rb = schedule(base, base_options, max_cycles=max_cycles)
    rh = schedule(head, head_options, max_cycles=max_cycles)
    keys_b, keys_h = set(base.workloads), set(head.workloads)
    pre_b = {p.workload: p for p in rb.preempted}
    pre_h = {p.workload: p for p in rh.preempted}
    tops_b, tops_h = final_topologies(rb, base), final_topologies(rh, head)
    changes: list[WorkloadChange] = []
    for key in sorted(keys_b & keys_h):
        ab, ah = key in rb.final_admitted, key in rh.final_admitted
        before, after = _state(rb, key), _state(rh, key)
        tb, th = tops_b.get(key), tops_h.get(key)
        topo = {"topology_before": tb, "topology_after": th}
        if key in pre_h and key not in pre_b:
            p = pre_h[key]
            changes.append(WorkloadChange(key, NEWLY_PREEMPTED, before, after,
                                          f"preempted by {p.by} ({p.reason}) in cycle {p.cycle}", **topo))
        elif key in pre_b and key not in pre_h:
            changes.append(WorkloadChange(key, NO_LONGER_PREEMPTED, before, after, **topo))
        if ab and not ah:
            # a TAS workload's Kueue message: where placement fails, its topology failure text
            changes.append(WorkloadChange(key, LOSES_ADMISSION, before, after,
                                          _pending_message(rh, key) if tb is not None else "", **topo))
        elif ah and not ab:
            changes.append(WorkloadChange(key, NEWLY_ADMITTED, before, after, **topo))
        elif ab and ah and (rb.final_admitted[key] != rh.final_admitted[key] or topology_change(tb, th)):
            changes.append(WorkloadChange(key, MOVED, before, after, topology_change(tb, th), **topo))
    ub = {(r.node, r.kind, r.flavor, r.resource): r.usage for r in rb.usage}
    uh = {(r.node, r.kind, r.flavor, r.resource): r.usage for r in rh.usage}
    usage = tuple(UsageChange(k[0], k[1], k[2], k[3], ub.get(k, 0), uh.get(k, 0))
                  for k in sorted(set(ub) | set(uh), key=lambda k: (k[1] != "ClusterQueue", k[0], k[3], k[2]))
                  if ub.get(k, 0) or uh.get(k, 0))
    return DiffResult(rb, rh, tuple(changes), _capacity(base, base_options, head, head_options), usage,
                      tuple(sorted(keys_b - keys_h)), tuple(sorted(keys_h - keys_b)),
                      topology_base=tops_b, topology_head=tops_h)
