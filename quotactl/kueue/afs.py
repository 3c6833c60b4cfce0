"""Admission Fair Sharing: each LocalQueue's decayed usage, which orders the pending workloads of a
ClusterQueue with ``admissionScope.admissionMode: UsageBasedAdmissionFairSharing`` (lowest usage
first, before priority) and its preemption candidates (highest usage first).

Sources (kubernetes-sigs/kueue):

- ``pkg/util/admissionfairsharing``: ``Enabled`` (the Configuration's ``admissionFairSharing`` and
  the gate), ``ResourceWeights``, ``CalculateUsage`` (Σ weight·(consumed + pending penalty) /
  LocalQueue weight; a weight <= 0 is +Inf), ``CalculateEntryPenalty`` and
  ``CalculateDecayedConsumed`` (``calculateAlphaRate``: 1 − 0.5^(elapsed / half-life), 0 for a
  half-life of 0).
- ``pkg/util/resource`` ``MulByFloat``: a decimal product rounded down to 9 decimals (so a
  decaying value reaches 0); amounts are summed exactly (``MergeResourceListKeepSum``).
- ``pkg/cache/queue/afs`` (``AfsUsageLedger``): per LocalQueue the consumed history, its last
  update, and one pending entry penalty per workload (a new one replaces the workload's record).
- ``pkg/scheduler/scheduler.go`` ``updateEntryPenalty``: at each quota reservation in such a
  ClusterQueue, requests · α(usageSamplingInterval) becomes the workload's pending penalty.
- ``pkg/controller/core/workload_controller.go`` ``updateAfsConsumedUsage``: when the workload
  becomes Admitted, consumed decays toward the LocalQueue's admitted usage (which now includes it)
  and its penalty is folded in; ``reconcileAfsPenaltiesOnUpdate``: a penalty that can no longer
  settle (finished or deactivated first) is dropped.
- ``pkg/controller/core/localqueue_controller.go`` ``reconcileConsumedUsage``: every sampling
  interval consumed decays toward the admitted usage; with a half-life of 0 it is reset to 0;
  ``initializeAfsIfNeeded`` seeds consumed from ``status.fairSharing.admissionFairSharingStatus``.

quotactl's clock: the sampling ticks fall on ``t0 + k·usageSamplingInterval`` for every LocalQueue
(simulate only; ``schedule``, ``explain`` and ``preempt`` answer for one instant), and are applied
when the clock reaches the next event (``advance``): between events the admitted usage does not
change, so that gives the same values; ticks never keep a run going.  A seeded LocalQueue's last
update is its status ``lastUpdate`` (when not after t0), so its first decay spans from then.

The engine is pure: the ledger only holds the state the scheduler hands it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_DOWN, Context, Decimal

from quotactl.kueue.amounts import CPU
from quotactl.kueue.priority import parse_time
from quotactl.model.features import FeatureGates
from quotactl.model.go_duration import parse_duration as go_duration  # Go's time.ParseDuration
from quotactl.model.kueue import ClusterQueue, KueueCluster, KueueConfiguration, LocalQueue, Workload

USAGE_BASED = "UsageBasedAdmissionFairSharing"
DEFAULT_SAMPLING_SECONDS = 300.0  # usageSamplingInterval's default (apis/config defaults.go)
_NANOS = 1_000_000_000
# MulByFloat's scale (9 decimals, rounded down); a context wide enough for any int64 amount times a factor
_SCALE = Decimal("1e-9")
_CTX = Context(prec=80)
# at most this many sampling ticks are applied one by one between two events; the rest at once
MAX_STEPPED_TICKS = 256

Values = dict[str, Decimal]  # resource -> amount in Kubernetes units (cpu in cores)
LQ = tuple[str, str]  # (namespace, name), the model's LocalQueue key


class AfsConfigError(ValueError):
    """An admissionFairSharing value Kueue would refuse to start with: ``str(e)`` is
    ``file:line:column: message``."""


@dataclass(frozen=True)
class AfsSettings:
    """The Configuration's ``admissionFairSharing``, checked (``pkg/config/validation.go
    validateAdmissionFairSharing``), in seconds."""

    half_life: float
    sampling: float
    resource_weights: tuple[tuple[str, float], ...] = ()

    @property
    def entry_rate(self) -> float:
        """α of ``CalculateEntryPenalty``: the share of a reservation's requests it costs at once."""
        return alpha_rate(self.sampling, self.half_life)

    def weight_of(self, resource: str) -> float:
        for name, w in self.resource_weights:
            if name == resource:
                return w
        return 1.0


def afs_settings(cfg: KueueConfiguration | None, gates: FeatureGates) -> AfsSettings | None:
    """``admissionfairsharing.Enabled``: the section present and the gate on; None otherwise.
    Raises AfsConfigError where Kueue's validation (or its duration decoding) refuses a value."""
    if cfg is None or not cfg.admission_fair_sharing or not gates.enabled("AdmissionFairSharing"):
        return None
    half_life = _duration(cfg, "usageHalfLifeTime", cfg.afs_half_life, 0.0)
    if half_life < 0:
        raise _error(cfg, ("usageHalfLifeTime",), "usageHalfLifeTime must be >= 0")
    sampling = _duration(cfg, "usageSamplingInterval", cfg.afs_sampling_interval, DEFAULT_SAMPLING_SECONDS)
    if sampling <= 0:
        raise _error(cfg, ("usageSamplingInterval",), "usageSamplingInterval must be greater than 0")
    weights = []
    for res, raw in cfg.afs_resource_weights:
        w = _weight(raw)
        if w is None or w < 0:
            raise _error(cfg, ("resourceWeights", res),
                         f"resourceWeights[{res}] must be a finite number >= 0 (got {raw!r})")
        weights.append((res, w))
    return AfsSettings(half_life, sampling, tuple(sorted(weights)))


def _duration(cfg: KueueConfiguration, name: str, raw: object, default: float) -> float:
    if raw is None:
        return default
    if not isinstance(raw, str):
        raise _error(cfg, (name,), f"{name}: {raw!r} is not a duration (write e.g. 5m or 168h)")
    try:
        return go_duration(raw) / _NANOS
    except ValueError as exc:
        raise _error(cfg, (name,), f"{name}: {exc}") from None


def _weight(raw: object) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        return None
    try:
        w = float(raw)
    except ValueError:
        return None
    return w if math.isfinite(w) else None


def _error(cfg: KueueConfiguration, rel: tuple, message: str) -> AfsConfigError:
    path = ("admissionFairSharing",) + rel
    ref = getattr(cfg.source, "ref", None)
    where = "<input>:1:1"
    if ref is not None:
        pos = ref.pos(path, value=True)
        where = f"{ref.file}:{pos.line}:{pos.column}"
    return AfsConfigError(f"{where}: Configuration admissionFairSharing: {message}")


def uses_afs(cq: ClusterQueue | None, settings: AfsSettings | None) -> bool:
    """``ClusterQueueUsesAdmissionFairSharing``."""
    return settings is not None and cq is not None and cq.admission_mode == USAGE_BASED


# -- Kueue's arithmetic ------------------------------------------------------------------

def alpha_rate(elapsed: float, half_life: float) -> float:
    """``calculateAlphaRate``."""
    if half_life == 0:
        return 0.0
    return 1.0 - 0.5 ** (elapsed / half_life)


def mul_by_float(values: Values, f: float) -> Values:
    """``MulByFloat``: the exact decimal product of the shortest form of ``f``, rounded down to 9
    decimals."""
    factor = Decimal(repr(f))
    return {r: _CTX.multiply(v, factor).quantize(_SCALE, rounding=ROUND_DOWN, context=_CTX)
            for r, v in values.items()}


def merged(a: Values, b: Values, sign: int = 1) -> Values:
    """``MergeResourceListKeepSum`` (``sign`` -1: ``b`` subtracted); zeros are dropped."""
    out = dict(a)
    for r, v in b.items():
        out[r] = _CTX.add(out.get(r, Decimal(0)), v if sign > 0 else -v)
    return {r: v for r, v in out.items() if v}


def decayed(old: Values, live: Values, elapsed: float, half_life: float) -> Values:
    """``CalculateDecayedConsumed``."""
    a = alpha_rate(elapsed, half_life)
    return merged(mul_by_float(old, 1 - a), mul_by_float(live, a))


def calculate_usage(consumed: Values, penalty: Values, lq_weight: float, settings: AfsSettings) -> float:
    """``CalculateUsage``: resources in name order, each times its weight; +Inf for a weight <= 0."""
    total = merged(consumed, penalty)
    usage = 0.0
    for r in sorted(total):
        usage += settings.weight_of(r) * float(total[r])
    if lq_weight <= 0:
        return math.inf
    return usage / lq_weight


def lq_weight(lq: LocalQueue | None) -> float:
    """``LQWeightAsFloat64`` (a missing LocalQueue or weight: 1)."""
    if lq is None or lq.fair_sharing is None or lq.fair_sharing.weight is None:
        return 1.0
    return lq.fair_sharing.weight.nanos / _NANOS


def as_values(usage: dict[tuple[str, str], int]) -> Values:
    """A workload's usage per (flavor, resource) in Kueue's amounts, as one quantity per resource
    (``FlattenFlavors().ToResourceList``: cpu back to cores)."""
    out: Values = {}
    for (_flavor, res), v in usage.items():
        d = Decimal(v).scaleb(-3) if res == CPU else Decimal(v)
        out[res] = _CTX.add(out.get(res, Decimal(0)), d)
    return {r: v for r, v in out.items() if v}


def lq_key_of(wl: Workload) -> LQ:
    return (wl.namespace, wl.queue_name or "")


def lq_name(key: LQ) -> str:
    return f"{key[0]}/{key[1]}"


def format_usage(usage: float) -> str:
    """A usage for people: 6 significant digits; +Inf is a LocalQueue of weight 0."""
    return "infinite (weight 0)" if math.isinf(usage) else f"{usage:.6g}"


def usage_value(usage: float) -> float | None:
    """A usage for JSON: rounded to 6 decimals; null for +Inf (weight 0)."""
    return None if math.isinf(usage) else round(usage, 6)


# -- the ledger ----------------------------------------------------------------------------

class _Entry:
    """One LocalQueue's ``UsageLedgerEntry``, with its admitted usage (the cache's LocalQueue)."""

    __slots__ = ("consumed", "last_update", "penalties", "pending", "admitted", "live", "weight", "usage")

    def __init__(self, consumed: Values, last_update: datetime | None, weight: float):
        self.consumed = consumed
        self.last_update = last_update  # None: t0
        self.penalties: dict[str, Values] = {}
        self.pending: Values = {}
        self.admitted: dict[str, Values] = {}  # Admitted workload -> its usage
        self.live: Values = {}  # the sum of ``admitted`` (GetAdmittedUsage)
        self.weight = weight
        self.usage: float | None = None  # CalculateUsage, cached until a change


class AfsLedger:
    """The ``AfsUsageLedger`` of the LocalQueues of every ClusterQueue that uses admission fair
    sharing, with the admitted usage of each, as a run changes them."""

    def __init__(self, cluster: KueueCluster, settings: AfsSettings,
                 admitted: Iterable[tuple[Workload, dict]] = ()):
        """``admitted``: the input's Admitted workloads (with their usage per flavor-resource)
        in these ClusterQueues.  The clock starts with ``start_clock``."""
        self.cluster = cluster
        self.settings = settings
        self.t0: datetime | None = None  # the instant of the snapshot (start_clock)
        self.cluster_queues = frozenset(name for name, cq in cluster.cluster_queues.items() if uses_afs(cq, settings))
        self.entries: dict[LQ, _Entry] = {}
        self._lq_of: dict[str, LQ] = {}  # workload -> the LocalQueue it has a record or usage in
        self._tick = 0  # sampling ticks applied (simulate: see start_clock)
        self._ticking = False
        self._frozen: dict[LQ, float] | None = None  # the cycle's snapshot of usage (see begin_cycle)
        # per group of ClusterQueues (the scheduler's cohort trees, ``group_by``): a counter that
        # moves with every change of the usage of one of their LocalQueues
        self._group_of: Callable[[str], str] = lambda cq: ""
        self.versions: dict[str, int] = {}
        self._lqs_of: dict[str, list[LQ]] = {}  # ClusterQueue -> its LocalQueues, by name
        for key, lq in sorted(cluster.local_queues.items()):
            if lq.cluster_queue in self.cluster_queues:
                self._entry(key, lq)
                self._lqs_of.setdefault(lq.cluster_queue, []).append(key)
        for wl, usage in admitted:
            self._admit(wl, as_values(usage))

    def _entry(self, key: LQ, lq: LocalQueue | None = None) -> _Entry:
        e = self.entries.get(key)
        if e is None:
            lq = lq if lq is not None else self.cluster.local_queues.get(key)
            seeded: Values = {}
            last = None
            if lq is not None and self.settings.half_life > 0:
                seeded = {r: Decimal(q.nanos).scaleb(-9) for r, q in lq.afs_consumed if q.nanos}
                last = parse_time(lq.afs_last_update)  # a later one than now elapses nothing (Kueue clamps)
            e = self.entries[key] = _Entry(seeded, last, lq_weight(lq))
        return e

    # -- reading ---------------------------------------------------------------------------
    def usage(self, key: LQ) -> float:
        """The LocalQueue's fair-sharing usage now (``CalculateUsage``)."""
        e = self._entry(key)
        if e.usage is None:
            e.usage = calculate_usage(e.consumed, e.pending, e.weight, self.settings)
        return e.usage

    def usages(self) -> tuple[tuple[str, float], ...]:
        """("ns/name", usage) of every LocalQueue of these ClusterQueues, by name."""
        keys = sorted(k for keys in self._lqs_of.values() for k in keys)
        return tuple((lq_name(k), self.usage(k)) for k in keys)

    def workload_usage(self, wl: Workload) -> float | None:
        """The usage that orders ``wl`` in its ClusterQueue's queue; None when that ClusterQueue
        does not use admission fair sharing."""
        if self.cluster.cluster_queue_name_of(wl) not in self.cluster_queues:
            return None
        return self.usage(lq_key_of(wl))

    def candidate_usage(self, wl: Workload, cluster_queue: str) -> float | None:
        """``workload.Info.LocalQueueFSUsage`` of an admitted workload as the cycle's snapshot
        took it (``snapshot.go``: set only in ClusterQueues using admission fair sharing)."""
        if cluster_queue not in self.cluster_queues:
            return None
        key = lq_key_of(wl)
        if self._frozen is not None and key in self._frozen:
            return self._frozen[key]
        return self.usage(key)

    def local_queue_count(self, cluster_queue: str) -> int:
        """How many LocalQueues of the input point at ``cluster_queue``."""
        return len(self._lqs_of.get(cluster_queue, ()))

    def group_by(self, group_of: Callable[[str], str]) -> None:
        """Count changes per group of ClusterQueues (``group_of``: ClusterQueue -> its group)."""
        self._group_of = group_of

    def version(self, group: str) -> int:
        """Moves whenever the usage of a LocalQueue of the group's ClusterQueues changes."""
        return self.versions.get(group, 0)

    def begin_cycle(self) -> None:
        """A scheduling cycle starts: preemption reads the usage of this moment until the next."""
        self._frozen = {}

    # -- the run's transitions -----------------------------------------------------------
    def quota_reserved(self, wl: Workload, cluster_queue: str, usage: dict) -> None:
        """``updateEntryPenalty`` (add), at the quota reservation: requests · α, replacing the
        workload's previous record."""
        if cluster_queue not in self.cluster_queues:
            return
        key = lq_key_of(wl)
        e = self._changing(key)
        penalty = mul_by_float(as_values(usage), self.settings.entry_rate)
        self._drop_record(e, wl.key)
        e.penalties[wl.key] = penalty
        e.pending = merged(e.pending, penalty)
        self._lq_of[wl.key] = key

    def settle_entry_penalty(self, wl: Workload, cluster_queue: str, usage: dict, now: datetime) -> None:
        """The workload became Admitted (``updateAfsConsumedUsage``): its usage joins the
        LocalQueue's admitted usage, consumed decays toward that (for the time since the last
        update) and its pending penalty is folded in.  The one place the Admitted transition
        reaches the ledger: call it where the workload's Admitted condition turns True."""
        if cluster_queue not in self.cluster_queues:
            return
        key = lq_key_of(wl)
        e = self._changing(key)
        self._admit(wl, as_values(usage))
        last = e.last_update or self.t0 or now
        elapsed = max(0.0, (now - last).total_seconds())
        consumed = decayed(e.consumed, e.live, elapsed, self.settings.half_life)
        penalty = self._drop_record(e, wl.key)
        e.consumed = merged(consumed, penalty) if self.settings.half_life > 0 else {}
        e.last_update = max(now, last)

    def released(self, key: str) -> None:
        """The workload no longer holds its quota (finished, evicted): its usage leaves the
        LocalQueue's admitted usage."""
        lq = self._lq_of.get(key)
        e = self.entries.get(lq) if lq is not None else None
        if e is None or key not in e.admitted:
            return
        self._changing(lq)
        e.live = merged(e.live, e.admitted.pop(key), -1)
        if key not in e.penalties:
            self._lq_of.pop(key, None)

    def drop_entry_penalty(self, key: str) -> None:
        """``SubPenalty``: the workload finished, was deactivated or deleted before it was
        Admitted, so its penalty never settles."""
        lq = self._lq_of.get(key)
        e = self.entries.get(lq) if lq is not None else None
        if e is None or key not in e.penalties:
            return
        self._changing(lq)
        self._drop_record(e, key)
        if key not in e.admitted:
            self._lq_of.pop(key, None)

    def start_clock(self, t0: datetime, ticks: bool) -> None:
        """The run starts at ``t0``: the last update of a LocalQueue without a seeded one;
        ``ticks`` (simulate): the sampling ticks run from ``t0`` on (``schedule`` answers for one
        instant: none)."""
        self.t0 = t0
        self._ticking = ticks
        self._tick = 0

    def advance(self, now: datetime) -> None:
        """Apply every sampling tick at or before ``now`` (``reconcileConsumedUsage``)."""
        if not self._ticking or not self.entries:
            return
        last = (now - self.t0) // self._interval()  # whole ticks, in integer microseconds
        if last <= self._tick:
            return
        first = self._tick + 1
        self._tick = last
        for key in sorted(self.entries):
            self._decay(key, first, last)

    def _decay(self, key: LQ, first: int, last: int) -> None:
        """Ticks ``first``..``last`` of one LocalQueue (its admitted usage is the same at each)."""
        e = self._changing(key)
        half_life, interval = self.settings.half_life, self.settings.sampling
        if half_life == 0:
            e.consumed = {}
            e.last_update = self._tick_time(last)
            return
        stepped = min(last, first + MAX_STEPPED_TICKS - 1)
        for k in range(first, stepped + 1):
            at = self._tick_time(k)
            start = e.last_update or self.t0
            e.consumed = decayed(e.consumed, e.live, max(0.0, (at - start).total_seconds()), half_life)
            e.last_update = max(at, start)
        if stepped < last:  # the remaining ticks at once: n more steps of one interval each
            n = last - stepped
            e.consumed = decayed(e.consumed, e.live, n * interval, half_life)
            e.last_update = self._tick_time(last)

    def _interval(self) -> timedelta:
        """The sampling interval on the clock's grain (a microsecond at least)."""
        return timedelta(microseconds=max(1, round(self.settings.sampling * 1_000_000)))

    def _tick_time(self, k: int) -> datetime:
        return self.t0 + k * self._interval()

    # -- bookkeeping ---------------------------------------------------------------------
    def _changing(self, key: LQ) -> _Entry:
        """The entry of ``key``, about to change: the cycle keeps what it read, the cache goes."""
        e = self._entry(key)
        if self._frozen is not None and key not in self._frozen:
            self._frozen[key] = self.usage(key)
        e.usage = None
        lq = self.cluster.local_queues.get(key)
        group = self._group_of(lq.cluster_queue or "") if lq is not None else ""
        self.versions[group] = self.versions.get(group, 0) + 1
        return e

    def _admit(self, wl: Workload, values: Values) -> None:
        key = lq_key_of(wl)
        e = self._entry(key)
        old = e.admitted.get(wl.key)
        if old is not None:
            e.live = merged(e.live, old, -1)
        e.admitted[wl.key] = values
        e.live = merged(e.live, values)
        self._lq_of[wl.key] = key

    @staticmethod
    def _drop_record(e: _Entry, key: str) -> Values:
        old = e.penalties.pop(key, None)
        if old is None:
            return {}
        e.pending = merged(e.pending, old, -1)
        return old

    # -- what the fixpoint observer compares -------------------------------------------
    def state(self, cluster_queues: Iterable[str], mark: Callable[[tuple], int]) -> int:
        """The fingerprint of the usage of the LocalQueues of ``cluster_queues`` (their order)."""
        total = 0
        for name in cluster_queues:
            for key in self._lqs_of.get(name, ()):
                total += mark(("AFS", key, self.usage(key)))
        return total


def ledger_for(cluster: KueueCluster, settings: AfsSettings | None,
               admitted: Iterable[tuple[Workload, dict]]) -> AfsLedger | None:
    """The ledger when some ClusterQueue uses admission fair sharing, else None (nothing of this
    runs, and every answer is the one without it)."""
    if settings is None or not any(uses_afs(cq, settings) for cq in cluster.cluster_queues.values()):
        return None
    return AfsLedger(cluster, settings, admitted)


def is_admitted(wl: Workload) -> bool:
    """Admitted (the cache's admitted usage counts only these): Admitted=True, or no Admitted
    condition at all (a hand-written snapshot of a workload holding quota)."""
    c = wl.conditions.get("Admitted")
    return c is None or c.status == "True"
