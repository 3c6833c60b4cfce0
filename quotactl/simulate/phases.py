"""A workload's life after its quota reservation, on the clock: admission checks (two-phase
admission) and WaitForPodsReady.  The rules are Kueue's (``kueue/lifecycle.py``); the inputs
quotactl's annotations (``lifecycle.py``); this module books the transitions on a run's workload
records and tells the scheduler what the workload controller does (evict, deactivate, pods ready).

``admitted`` books a workload's Admitted=True transition (its runtime starts there) and calls
``run._Run.admitted``, the one place every Admitted transition of a run goes through.
"""

from __future__ import annotations

from quotactl.kueue.lifecycle import (
    ADMISSION_CHECK,
    DEACTIVATED,
    PODS_READY_TIMEOUT,
    READY,
    REJECTED,
    RETRY,
    applicable_checks,
    check_verdict,
    deactivates,
    requeue_backoff,
)
from quotactl.kueue.lifecycle import PENDING as CHECK_PENDING
from quotactl.simulate.clock import US
from quotactl.simulate.clock import at as clock_at
from quotactl.simulate.events import CHECK, PODS_READY, TIMEOUT
from quotactl.simulate.lifecycle import Annotations, attempt_for, pods_ready_settings
from quotactl.simulate.result import Eviction


def lifecycle_for(run) -> Phases | None:
    """The lifecycle of ``run`` (a ``run._Run``), or None when no ClusterQueue has an admission
    check and waitForPodsReady is off: then a reservation is the admission, as before."""
    if not models_lifecycle(run.cluster):
        return None
    return Phases(run, pods_ready_settings(run.cluster.configuration, run.s.options.gates))


def models_lifecycle(cluster) -> bool:
    """Some ClusterQueue has an admission check, or the Configuration turns waitForPodsReady on (its
    gate aside: a run then books PodsReady at once, as without it)."""
    cfg = cluster.configuration
    return (cfg is not None and cfg.pods_ready is not None) or any(
        cq.admission_checks for cq in cluster.cluster_queues.values())


class Phases:
    def __init__(self, run, pods_ready):
        self.run = run
        self.pods_ready = pods_ready
        self.notes = Annotations(run.cluster)
        self.rules = {name: cq.admission_checks for name, cq in run.cluster.cluster_queues.items()}
        self._endless: set[str] | None = None  # see endless
        self._repeats: set[tuple] = set()

    def endless(self, events, queues) -> bool:
        """What is left repeats forever: every queued event is one of a workload that never gets
        past waitForPodsReady (pods never ready, a runtime not shorter than the timeout, no
        backoffLimitCount to deactivate it), each of them at the maximum backoff already, and the
        workloads holding quota and queued are the same as at an earlier such instant: Kueue
        would evict and requeue them forever, and nothing else would change."""
        settings = self.pods_ready
        if settings is None or settings.backoff_limit_count is not None:
            return False
        if self._endless is None:
            self._endless = {key for key in self.run.track if self._never_ready(key)}
        if not self._endless:
            return False
        keys = events.keys_if_few(4 * len(self._endless))
        if keys is None or not keys <= self._endless:
            return False
        cap = settings.backoff_max_seconds
        if any(requeue_backoff(self.run.track[k].requeue_count + 1, settings.backoff_base_seconds, cap) < cap
               for k in self._endless):
            return False
        state = (tuple(sorted(k for cq in self.run.s.snapshot.cluster_queues.values() for k in cq.workloads)),
                 tuple(sorted(okey[-1] for q in queues.values() for okey in (*q.active, *q.inadmissible.values()))))
        if state in self._repeats:
            return True
        self._repeats.add(state)
        return False

    def _never_ready(self, key: str) -> bool:
        tr = self.run.track[key]
        wl = self.run.cluster.workloads[key]
        return self.notes.pods_ready_after(wl) is None and (tr.runtime is None or tr.runtime >= self.pods_ready.timeout)

    # -- the input's quota holders -----------------------------------------------------------
    def loaded(self, tr, wl) -> bool:
        """A workload the input holds quota for (``tr.since``: its start).  Admitted there, or no
        check applies: it runs as before, its pods ready at once unless its annotation says
        later (False: the caller books its runtime).  Reserved and not Admitted (QuotaReserved
        without Admitted): it waits for its checks, a check Ready, Retry or Rejected in its status
        staying so (True: its runtime starts when it is Admitted)."""
        tr.reservations = 1
        assignments = wl.admission.pod_set_assignments if wl.admission else ()
        flavors = {f for psa in assignments for f in psa.flavors.values()}
        names = applicable_checks(self.rules.get(tr.cq, ()), flavors)
        if wl.condition_true("Admitted") or not wl.condition_true("QuotaReserved") or not names:
            tr.is_admitted = True
            if wl.condition_true("PodsReady"):
                self._ready(tr)
            else:
                self._pods_start(tr, tr.since)
            return False
        self._start_checks(tr, names, tr.since, {c.name: c.state for c in wl.admission_checks})
        return True

    # -- the transitions ------------------------------------------------------------------
    def reserved(self, tr, flavors, at: int) -> None:
        """``tr`` reserved quota at ``at`` on ``flavors``: its checks start (their answers are
        booked as events), or, with none applying, it is Admitted at once."""
        tr.reservations += 1
        tr.is_admitted = tr.ready = False
        names = applicable_checks(self.rules.get(tr.cq, ()), flavors)
        if not names:
            tr.checks = None
            self.admitted(tr, at)
            return
        self._start_checks(tr, names, at, None)

    def _start_checks(self, tr, names: tuple[str, ...], at: int, input_states: dict | None) -> None:
        """Book the answers of ``names`` to the reservation at ``at`` (``input_states``: a
        snapshot's check states of a workload reserved before t0; its Pending ones answer as the
        annotations say, from ``at``)."""
        wl = self.run.cluster.workloads[tr.key]
        plan = {}
        for name in names:
            given = input_states.get(name) if input_states else None
            if given in (READY, RETRY, REJECTED):  # the snapshot's answer stands (Retry, Rejected: at t0)
                plan[name] = ((given, at, None),)
                continue
            attempt = attempt_for(self.notes.attempts(wl, name), tr.reservations)
            plan[name] = tuple((t.state, at + t.delay, t.requeue_after) for t in attempt)
        tr.checks = plan
        for when in sorted({max(self.run.now, t[1]) for steps in plan.values() for t in steps}):
            self.run.events.lifecycle(when, CHECK, tr.key, tr.token)

    def admitted(self, tr, at: int) -> None:
        """``tr`` becomes Admitted at ``at`` (every applicable check Ready; SyncAdmittedCondition):
        its runtime starts, and with waitForPodsReady its pods' readiness and timeout are booked."""
        run = self.run
        tr.is_admitted = True
        tr.admitted_at.append(at)
        tr.since = at
        if tr.runtime is not None:
            run.events.finish(max(run.now, at + tr.runtime), tr.key, tr.token)
        run.admitted(tr.key, at)
        self._pods_start(tr, at)

    def _pods_start(self, tr, at: int) -> None:
        after = self.notes.pods_ready_after(self.run.cluster.workloads[tr.key])
        if self.pods_ready is None or after == 0:
            self._ready(tr)
            return
        if after is not None:
            self.run.events.lifecycle(max(self.run.now, at + after), PODS_READY, tr.key, tr.token)
        self.run.events.lifecycle(max(self.run.now, at + self.pods_ready.timeout), TIMEOUT, tr.key, tr.token)

    def _ready(self, tr) -> None:
        tr.ready = True
        if self.run.s.pods_ready(tr.key):  # blockAdmission: the scheduler's wait is over
            for tree in self.run.s.wake_all():
                self.run.watch.reset(tree)

    # -- the events of one instant (events.Instant) -----------------------------------------
    def on_ready(self, key: str, token: int) -> None:
        tr = self.run.track[key]
        if token == tr.token and tr.since is not None and not tr.ready:
            self._ready(tr)

    def on_check(self, key: str, token: int, t: int) -> None:
        tr = self.run.track[key]
        if token != tr.token or tr.since is None or not tr.checks:
            return
        states = {name: _state_at(steps, t) for name, steps in tr.checks.items()}
        verdict = check_verdict(s for s, _r in states.values())
        if verdict == REJECTED:
            self._deactivate(tr, t)
        elif verdict == RETRY:
            after = max((r or 0 for s, r in states.values() if s == RETRY), default=0)
            self._evict(tr, t, ADMISSION_CHECK, after)
        elif verdict == READY and not tr.is_admitted:
            self.admitted(tr, t)

    def on_timeout(self, key: str, token: int, t: int) -> None:
        """``reconcileNotReadyTimeout``: Admitted, not PodsReady, timeout passed."""
        tr = self.run.track[key]
        if token != tr.token or tr.since is None or tr.ready or not tr.is_admitted:
            return
        settings = self.pods_ready
        if deactivates(tr.requeue_count + 1, settings.backoff_limit_count):
            self._deactivate(tr, t)
            return
        tr.requeue_count += 1
        wait = requeue_backoff(tr.requeue_count, settings.backoff_base_seconds, settings.backoff_max_seconds)
        self._evict(tr, t, PODS_READY_TIMEOUT, wait * US)

    # -- what the workload controller does ---------------------------------------------------
    def _release(self, tr, t: int, reason: str) -> None:
        run = self.run
        tr.evictions.append(Eviction(t, reason, None))
        if tr.is_admitted:
            tr.lost += max(0, t - tr.since)
        tr.token += 1
        run.ledger.change(tr.cq, tr.usage, -1, t)
        tr.since, tr.usage, tr.checks = None, None, None
        tr.is_admitted = tr.ready = False
        run.touched.add(tr.cq)

    def _evict(self, tr, t: int, reason: str, requeue_after: int) -> None:
        run = self.run
        self._release(tr, t, reason)
        was_blocking = run.s.admission_blocked
        run.s.evict(tr.key, tr.cq, reason, clock_at(run.t0, t), requeue=requeue_after <= 0)
        if requeue_after > 0:
            run.events.arrive(t + requeue_after, tr.key)
        self._unblocked(was_blocking)

    def _deactivate(self, tr, t: int) -> None:
        run = self.run
        self._release(tr, t, DEACTIVATED)
        tr.deactivated = t
        was_blocking = run.s.admission_blocked
        run.s.finish(tr.key, tr.cq)  # spec.active=false: never queued again
        self._unblocked(was_blocking)

    def _unblocked(self, was_blocking: bool) -> None:
        if was_blocking and not self.run.s.admission_blocked:
            for tree in self.run.s.wake_all():
                self.run.watch.reset(tree)


def _state_at(steps: tuple, t: int) -> tuple[str, int | None]:
    """A check's (state, requeueAfter) at ``t``: its last transition at or before ``t``."""
    now = (CHECK_PENDING, None)
    for state, when, after in steps:
        if when <= t:
            now = (state, after)
    return now
