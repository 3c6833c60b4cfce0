"""The driver: a clock over Kueue's scheduler.

The engine state is ``kueue.scheduler.Scheduler``, built once; events change it in place (an
arrival queues a workload, a completion releases its quota and requeues its cohort tree's
parked workloads) and wake only the cohort trees they touch, so the cycles of an instant run over
those trees alone, and the whole run costs in proportion to its events.  Every scheduling
decision is the Scheduler's: this module holds no Kueue rule.

Fixpoint mode (the default): at each instant with an event, completions, then arrivals, then
cycles until the woken trees settle (``scheduler.run_to_fixpoint``, with ``schedule``'s livelock
detection).  Tick mode (``Cadence.interval`` > 0): one cycle per tick of the grid ``t0 + k*D``
while some woken tree has an active head; events between ticks are applied at their own times.
With the cadence's harness limits (``cadence.py``): admission, eviction and status writes through
a token bucket (runtimes start when the admission's write goes through; the writes Kueue waits
for end the cycle), and the requeue after a completion batched per cohort tree.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from quotactl.kueue.options import EngineOptions
from quotactl.kueue.scheduler import ADMITTED, CycleReport, Scheduler, TreeWatch, run_to_fixpoint
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.kueue import KueueCluster
from quotactl.simulate.cadence import FIXPOINT, Cadence
from quotactl.simulate.clock import at as clock_at
from quotactl.simulate.clock import until_micros
from quotactl.simulate.events import EventQueue
from quotactl.simulate.limits import BatchedRequeue, WriteBucket
from quotactl.simulate.phases import lifecycle_for, models_lifecycle
from quotactl.simulate.result import RUN_ORDER, Eviction, Sample, SimulationResult, WorkloadRun, workload_run
from quotactl.simulate.scenario import facts, start_time, started_at
from quotactl.simulate.stats import frozen_result
from quotactl.simulate.usage import UsageLedger

MAX_CYCLES_PER_INSTANT = 10_000


@dataclass(frozen=True)
class SimulationOptions:
    start: datetime | None = None  # --start (None: the contract's default)
    until: datetime | int | None = None  # --until: an instant, or microseconds from t0
    default_runtime: int | None = None  # microseconds
    cadence: Cadence = FIXPOINT
    max_cycles_per_instant: int = MAX_CYCLES_PER_INSTANT
    stop_when_admitted: frozenset = frozenset()  # stop once all of these were admitted (explain --eta)
    jobs: int = 1  # worker processes for independent cohort trees (fixpoint mode; see split.py)


class _Track:
    """One workload's mutable record during the run (frozen into a WorkloadRun at the end)."""

    __slots__ = ("key", "cq", "created", "arrival", "runtime", "runtime_source", "klass", "admissions",
                 "evictions", "finished", "token", "since", "in_input", "started", "overdue", "lost", "usage",
                 "topologies", "admitted_at", "deactivated", "requeue_count", "reservations", "checks",
                 "is_admitted", "ready")

    def __init__(self, key, f, cq=None):
        self.key, self.cq = key, cq
        self.created, self.arrival, self.klass = f.created, f.arrival, f.klass
        self.runtime, self.runtime_source = f.runtime.micros, f.runtime.source
        self.admissions: list[int] = []
        self.evictions: list[Eviction] = []
        self.finished: int | None = None
        self.token = 0  # the admission a completion event belongs to
        self.since: int | None = None  # running since (None: not holding quota)
        self.in_input = False
        self.started: int | None = None
        self.overdue = False
        self.lost = 0
        self.usage: dict | None = None
        self.topologies: list | None = None  # per admission, from the first one placed by topology on
        # the lifecycle after a reservation (phases.py; unused when the run models none)
        self.admitted_at: list[int] = []  # each Admitted=True transition
        self.deactivated: int | None = None
        self.requeue_count = 0  # status.requeueState.count
        self.reservations = 0
        self.checks: dict | None = None  # this reservation's checks: name -> ((state, at, requeueAfter), ...)
        self.is_admitted = False  # this reservation is Admitted (always, without checks)
        self.ready = False  # its pods are ready

    def admitted(self, at: int, topology: dict | None) -> None:
        """Book an admission at ``at``; ``topology``: its pod sets' topology assignments (None: no TAS)."""
        self.admissions.append(at)
        if topology is not None and self.topologies is None:
            self.topologies = [None] * (len(self.admissions) - 1)
        if self.topologies is not None:
            self.topologies.append(topology)

    def packed(self) -> tuple:
        """``frozen()``'s fields as plain tuples (cheap to pickle between processes: split.py)."""
        return (self.key, self.cq, self.klass, self.created, self.arrival, tuple(self.admissions),
                tuple((e.at, e.reason, e.by) for e in self.evictions), self.finished, self.runtime,
                self.runtime_source, self.in_input, self.started, self.overdue, self.lost,
                tuple(self.topologies) if self.topologies is not None else (), tuple(self.admitted_at),
                self.deactivated, self.requeue_count, self.since is not None and not self.is_admitted)

    def frozen(self) -> WorkloadRun:
        return workload_run(self.packed())  # one field list: packed()'s


def simulate(cluster: KueueCluster, options: EngineOptions, sim: SimulationOptions = SimulationOptions(), *,
             t0: datetime | None = None, progress: Callable[[int, int, int], None] | None = None,
             on_cycle=None) -> SimulationResult:
    """Run the clock over ``cluster`` (``t0``: already decided by the caller, e.g. before adding
    generated workloads; else from ``sim.start`` and the input).  ``progress(now, events_left,
    horizon)`` (horizon: the latest event time queued so far) is called after every instant; ``on_cycle(scheduler, report)`` after every cycle (property
    tests check invariants there).  Raises SimulationInputError on a bad runtime annotation."""
    with fewer_gc_pauses():
        t0 = t0 if t0 is not None else start_time(cluster, sim.start)
        # a run with checks or waitForPodsReady is one process: blockAdmission waits across trees
        if sim.jobs > 1 and on_cycle is None and not sim.stop_when_admitted and not sim.cadence.ticks and not (
                models_lifecycle(cluster)):
            from quotactl.simulate.split import split_run

            result = split_run(_Run(cluster, options, sim, t0, progress, None), sim.jobs)
            if result is not None:
                return result
            # a worker failed, or some tree livelocked or hit the cycle limit: the run stops
            # there for every tree, which one process decides
        return _Run(cluster, options, sim, t0, progress, on_cycle).result()


class _Run:
    def __init__(self, cluster: KueueCluster, options: EngineOptions, sim: SimulationOptions, t0: datetime,
                 progress, on_cycle):
        self.cluster, self.sim, self.t0, self.progress, self.on_cycle = cluster, sim, t0, progress, on_cycle
        self.cadence = sim.cadence
        self.until = until_micros(t0, sim.until)
        self.s = Scheduler(cluster, options, queue_pending=False)
        if self.s.afs is not None:  # admission fair sharing: its sampling ticks run on this clock
            self.s.afs.start_clock(t0, ticks=True)
        self.watch = TreeWatch(self.s)
        self.events = EventQueue()
        self.track: dict[str, _Track] = {}
        self.ledger = UsageLedger(self.s.snapshot)
        self.touched: set[str] = set()
        self.series: dict[str, list[Sample]] = {}
        self.cycles = 0
        self.now = 0
        self.next_tick = 0  # tick mode: no cycle before this time
        self.quiet = 0  # tick mode: cycles since the last event
        self.stopped = "drained"
        self.instant_cycles: list[tuple[int, int]] | None = None  # (instant, cycles run): see split.py
        self.awaited = set(sim.stop_when_admitted)
        c = self.cadence
        self.writes = WriteBucket(c.write_rate, c.write_burst) if c.write_rate else None
        self.requeues = BatchedRequeue(c.requeue_batch) if c.requeue_batch else None
        self.status: dict[str, tuple] = {}  # workload -> the pending status last written (with writes)
        self.life = lifecycle_for(self)  # None: a reservation is the admission (no checks, no waitForPodsReady)
        self.s.admitted_by_caller = self.life is not None
        self._load()

    # -- the input -----------------------------------------------------------------------
    def _load(self) -> None:
        default = self.sim.default_runtime
        holding = {key: cq.name for cq in self.s.snapshot.cluster_queues.values() for key in cq.workloads}
        arrivals = []
        seen: dict = {}  # see scenario.facts
        for key, wl in self.cluster.workloads.items():
            if key in holding:
                self._load_running(key, wl, holding[key], default)
            elif wl.is_queueable:
                tr = self.track[key] = _Track(key, facts(wl, self.t0, default, seen))
                arrivals.append((tr.arrival, key))
        if self.cadence.create_rate:
            arrivals = self._created(arrivals)
        self.events.load_arrivals(arrivals)
        self.touched.update(holding.values())  # their usage at t0 starts the plots' series

    def _created(self, arrivals: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The arrivals as the harness runner creates them (``generator.go`` ``generateWlSet``): one
        creator per (LocalQueue, class) makes its workloads one after the other, each its scheduled
        gap after the previous one's create went through, and every create waits for the
        runner's token bucket, first asked first served.  Under the limit that is the schedule
        itself; over it, every creator gets its turn, so a short series is not starved by a long
        one.  Each series keeps its order; the queue order stays that of the creationTimestamps as
        scheduled (across series it may differ from the order of the actual creates)."""
        bucket = WriteBucket(self.cadence.create_rate, self.cadence.create_burst)
        series: dict[tuple, list[tuple[int, str]]] = {}
        for at, key in sorted(arrivals):
            wl = self.cluster.workloads[key]
            series.setdefault((wl.namespace, wl.queue_name or "", self.track[key].klass or ""), []).append((at, key))
        asks = [(items[0][0], name, 0) for name, items in series.items()]  # (asked at, creator, index)
        heapq.heapify(asks)
        out = []
        while asks:
            asked, name, i = heapq.heappop(asks)
            items = series[name]
            done = bucket.take(asked)
            self.track[items[i][1]].arrival = done
            out.append((done, items[i][1]))
            if i + 1 < len(items):
                heapq.heappush(asks, (done + items[i + 1][0] - items[i][0], name, i + 1))
        return out

    def _load_running(self, key: str, wl, cq: str, default: int | None) -> None:
        """A workload the input admitted: it finishes at its start + runtime, at t0 when overdue."""
        tr = self.track[key] = _Track(key, facts(wl, self.t0, default), cq)
        tr.in_input, tr.token = True, 1
        tr.started = started_at(wl, self.t0)
        tr.since = tr.started if tr.started is not None else 0
        tr.usage = self.s.snapshot.cluster_queues[cq].workloads[key].usage
        if self.life is not None and self.life.loaded(tr, wl):
            return  # it waits for its checks or pods (phases.py books its runtime)
        if tr.runtime is not None:
            end = tr.since + tr.runtime
            tr.overdue = end < 0
            self.events.finish(max(0, end), key, tr.token)

    # -- events --------------------------------------------------------------------------
    def _finish(self, key: str, token: int, t: int) -> str | None:
        """Returns the cohort tree whose parked workloads the completion requeues."""
        tr = self.track[key]
        if token != tr.token or tr.since is None:
            return None  # the admission this completion belonged to was preempted
        blocking = self.s.admission_blocked
        tree = self.s.finish(key, tr.cq, requeue=False)
        if blocking and not self.s.admission_blocked:  # it was the last quota holder without ready pods
            for woken in self.s.wake_all():
                self.watch.reset(woken)
        self.ledger.change(tr.cq, tr.usage, -1, t)
        tr.finished, tr.since, tr.usage = t, None, None
        self._woke(tr.cq)
        return tree

    def _arrive(self, key: str) -> None:
        tr = self.track[key]
        cq = self.s.arrive(self.cluster.workloads[key])
        if cq is None:
            blocked = self.s.blocked.get(key)
            tr.cq = blocked.cluster_queue if blocked is not None else None
            return
        tr.cq = cq
        self._woke(cq)

    def _woke(self, cq: str) -> None:
        self.touched.add(cq)

    def _apply_events(self) -> None:
        """One instant's events; the trees they touch forget their cycle history (the watch)."""
        inst = self.events.pop_instant()
        trees = {self._finish(key, token, inst.at) for key, token in inst.finishes}
        for tree in sorted(t for t in trees if t is not None):  # once per tree, however many completions
            if self.requeues is None:
                self.s.requeue_tree(tree)
            else:  # the freed quota may fit an active head now; the parked ones come back later
                self.requeues.notify(tree, inst.at)
                self.s.wake(tree)
        life = self.life
        if life is not None:
            for key, token in inst.ready:
                life.on_ready(key, token)
            for key, token in inst.checks:
                life.on_check(key, token, inst.at)
            for key, token in inst.timeouts:
                life.on_timeout(key, token, inst.at)
        for key in inst.arrivals:
            self._arrive(key)
        for tree in {self.s.tree_of(cq) for cq in self.touched}:
            self.watch.reset(tree)

    def _sampling_ticks(self, t: int) -> None:
        """Admission fair sharing's sampling ticks up to ``t`` (first at an instant): they change
        the LocalQueues' usage only, and are never events of their own."""
        if self.s.afs is not None:
            self.s.afs.advance(clock_at(self.t0, t))

    def _apply_requeues(self, now: int) -> None:
        """The batched requeues due at ``now``: parked workloads back to their queues."""
        for tree in self.requeues.pop_due(now):
            self.s.requeue_tree(tree)
            self.watch.reset(tree)

    # -- cycles --------------------------------------------------------------------------
    def _record(self, rep: CycleReport, tick: int) -> int:
        """Book one cycle's admissions and evictions on the clock; returns when the cycle ends."""
        cost = self.cadence.admission_cost
        snap = self.s.snapshot
        for i, a in enumerate(rep.admitted, 1):
            ta = tick + i * cost
            tr = self.track[a.workload]
            tr.cq = a.cluster_queue
            tr.admitted(ta, a.topology)
            tr.token += 1
            tr.since = ta
            tr.usage = snap.cluster_queues[a.cluster_queue].workloads[a.workload].usage
            self.ledger.change(a.cluster_queue, tr.usage, +1, ta)
            self.touched.add(a.cluster_queue)
            if self.life is not None:  # quota reserved: Admitted now or when its checks are Ready
                self.life.reserved(tr, {f for ps in a.flavors.values() for f in ps.values()}, ta)
            else:
                if tr.runtime is not None:  # it runs once its admission is written
                    started = ta if self.writes is None else self.writes.take(ta)
                    self.events.finish(started + tr.runtime, a.workload, tr.token)
                self.admitted(a.workload, ta)
        end = self.cadence.cycle_end(tick, len(rep.admitted))
        if self.writes is not None:
            end = max(end, self._cycle_writes(rep, tick))
        for p in rep.preempted:
            tr = self.track[p.workload]
            if tr.since is None:
                continue
            tr.evictions.append(Eviction(end, p.reason, p.by))
            if tr.is_admitted or self.life is None:  # work ran only once Admitted
                tr.lost += max(0, end - tr.since)  # an input admission may claim to start after t0 (--start)
            tr.token += 1
            tr.is_admitted = tr.ready = False
            self.ledger.change(p.cluster_queue, tr.usage, -1, end)
            tr.since, tr.usage = None, None
            self.touched.add(p.cluster_queue)
        return end

    def admitted(self, key: str, at: int) -> None:
        """The one place a workload becomes Admitted (Admitted=True): at its quota reservation when
        the run models neither admission checks nor waitForPodsReady, else when ``phases.py``
        says so (its runtime already booked).  What acts "when the workload becomes Admitted"
        belongs here."""
        if self.life is not None:  # admission fair sharing: the entry penalty settles now
            tr = self.track[key]
            self.s.workload_admitted(self.cluster.workloads[key], tr.cq, tr.usage)
        if self.awaited:  # explain --eta: the run stops once every awaited workload was admitted
            self.awaited.discard(key)
            if not self.awaited:
                self.stopped = "admitted"

    def _cycle_writes(self, rep: CycleReport, tick: int) -> int:
        """The writes Kueue waits for inside the cycle (``preemption.IssuePreemptions``: each
        victim's eviction; ``scheduler.requeueAndUpdate``: the QuotaReserved=False status of each
        head left pending, when its reason or message changed); returns when the last one is
        through.  An admitted or evicted workload's next pending status is a change."""
        last = tick
        for p in rep.preempted:
            last = self.writes.take(tick)
            self.status.pop(p.workload, None)
        for h in rep.heads:
            if h.outcome == ADMITTED:
                self.status.pop(h.workload, None)
                continue
            said = (h.reason, h.message)
            if self.status.get(h.workload) != said:
                self.status[h.workload] = said
                last = self.writes.take(tick)
        return last

    def _fixpoint_instant(self) -> bool:
        """Events of the next instant, then cycles to the fixpoint; False to stop."""
        t = self.events.next_time()
        if self.until is not None and t > self.until:
            self.stopped = "until"
            return False
        if self._endless():
            return False
        self.now = t
        self._sampling_ticks(t)
        self._apply_events()
        self.s.event_time = clock_at(self.t0, t)  # the time of the conditions its cycles write (queue_order)

        def booked(scheduler, rep):  # while the admitted workloads are still in the snapshot
            self._record(rep, t)
            if self.on_cycle is not None:
                self.on_cycle(scheduler, rep)

        run = run_to_fixpoint(self.s, self.watch, self.cycles + 1, self.cycles + self.sim.max_cycles_per_instant,
                              booked)
        self.cycles += len(run.reports)
        if self.instant_cycles is not None:
            self.instant_cycles.append((t, len(run.reports)))
        self._sample()
        if run.hit_limit:
            self.stopped = "limit"
        elif self.watch.loops:
            self.stopped = "livelock"
        return self.stopped == "drained"

    def _tick_step(self) -> bool:
        """The next event or tick, whichever comes first (events at a tick go before its cycle)."""
        te = self.events.next_time()
        tq = self.requeues.next_time() if self.requeues is not None else None
        # never a tick before now: heads may wake (a completion) after the clock passed self.next_tick
        tt = self.cadence.next_tick(max(self.next_tick, self.now)) if self.s.has_active_heads() else None
        if te is None and tt is None and tq is None:
            return False
        t = min(x for x in (te, tq, tt) if x is not None)
        if self.until is not None and t > self.until:
            self.stopped = "until"
            return False
        if tt is None and tq is None and self._endless():
            return False
        self.now = t
        self._sampling_ticks(t)
        if te == t:
            self._apply_events()
            self.quiet = 0
        if tq == t:
            self._apply_requeues(t)
            self.quiet = 0
        if t >= self.next_tick and t % self.cadence.interval == 0 and self.s.has_active_heads():
            self.quiet += 1
            if self.quiet > self.sim.max_cycles_per_instant:  # the same safety net as one instant's cycles
                self.stopped = "limit"
                return False
            self.cycles += 1
            self.s.event_time = clock_at(self.t0, t)  # the time of the conditions the cycle writes (queue_order)
            rep = self.s.run_cycle(self.cycles)
            if self.on_cycle is not None:
                self.on_cycle(self.s, rep)
            self.watch.after_cycle(rep)
            end = self._record(rep, t)
            self.next_tick = max(t + 1, end)
            if self.watch.loops:
                self.stopped = "livelock"
        self._sample()
        return self.stopped == "drained"

    def _endless(self) -> bool:
        """Without --until, the run ends ("drained") when what is left would repeat forever: the
        PodsReady timeouts and requeues of workloads whose pods never become ready, with nothing
        else queued to happen or to be admitted (``phases.Phases.endless``)."""
        if self.until is not None or self.life is None or not self.life.endless(self.events, self.s.queues):
            return False
        self.stopped = "drained"
        return True

    def _sample(self) -> None:
        for cq in sorted(self.touched):
            q = self.s.queues[cq]
            self.series.setdefault(cq, []).append(
                Sample(self.now, len(q.active) + len(q.inadmissible), self.ledger.fractions_now(cq)))
        self.touched.clear()
        if self.progress is not None:
            self.progress(self.now, len(self.events), self.events.latest)

    def result(self) -> SimulationResult:
        self.begin()
        if self.cadence.ticks:
            while self._tick_step():
                pass
        else:
            self.run_instants()
        return self.freeze()

    def begin(self) -> None:
        if self.touched:
            self._sample()  # t0, before any event: what the input holds

    def run_instants(self, until_cycles: int | None = None) -> bool:
        """Fixpoint mode: instants until the events run out or the run stops (False), or, with
        ``until_cycles``, until that many cycles ran (True: more may follow)."""
        while self.events.next_time() is not None:
            if not self._fixpoint_instant():
                return False
            if until_cycles is not None and self.cycles >= until_cycles:
                return True
        return False

    def end(self) -> int:
        return self.until if self.stopped in ("until", "drained") and self.until is not None else self.now

    def freeze(self) -> SimulationResult:
        return self._freeze(self.end())

    # -- the result ----------------------------------------------------------------------
    def _freeze(self, end: int) -> SimulationResult:
        runs = sorted((tr.frozen() for tr in self.track.values()), key=RUN_ORDER)
        pending_counts = {name: len(q.active) + len(q.inadmissible) for name, q in self.s.queues.items()}
        return frozen_result(self, end, runs, self.ledger, pending_counts, self.series, self.s.pending(),
                             self.watch.livelock(), self.cycles, lifecycle=self.life is not None)
