"""Independent cohort trees on several cores (``simulate --jobs``, fixpoint mode).

Cohort trees share no quota, and Kueue nominates, orders and admits each one on its own (the
fixpoint and livelock detection, ``kueue.scheduler.TreeWatch``, relies on the same fact).  In fixpoint
mode an event touches one tree, and the cycles of an instant change each woken tree the same way
whatever the others do.  So once the start-up requeue cycle ran (the one cycle whose effect spans
every tree: ``STARTUP_REQUEUE_AFTER_CYCLE``), the run splits its trees into chunks, several per
worker.  The parent forks one process per chunk, at most ``jobs`` at a time and the heaviest
chunks first, each from the state at the split: it keeps the events of its own trees and runs
them to the end.  A core that runs faster (or a chunk that runs shorter) just takes the next
chunk, so the cores finish together whatever the machine does.  The parent merges the parts.
The merged result is the one-process result, byte for byte:

- cycles: at an instant, a tree takes part in cycles until it settles, and the instant runs until
  its busiest tree settled; the total is the sum over instants of the workers' largest count;
- reservation times come from cycle numbers (``Scheduler.start`` + number), which each worker
  numbers on its own; only their order within one tree is ever read (preemption candidates), and
  that order is the same.  One more rule reads numbers: whether a flavor scan's state is from the
  previous cycle (``scheduler.scan.FlavorScans.start``, FlavorFungibilityPreserveScanProgress).  Workers log
  those reads, and the merge checks each one against the one-process numbering
  (``_numbering_agrees``); where one would differ, one process runs instead;
- a livelock or the cycle limit stops the whole run at that instant, every tree included: the
  split then gives up (None) and one process runs the simulation again.

The tick grid and the harness cadence's write bucket are shared by every tree: those runs are not
split (``run.simulate`` decides). Nor are runs with topology-aware scheduling: every tree places
its pods on the same nodes (the snapshot's ``tas`` state), so the trees are not independent.
"""

from __future__ import annotations

import mmap
import os
import pickle
import select
import struct
import tempfile
from dataclasses import dataclass

from quotactl.kueue.scheduler import STARTUP_REQUEUE_AFTER_CYCLE
from quotactl.simulate.result import RUN_ORDER, workload_run
from quotactl.simulate.stats import frozen_result

MIN_WORKLOADS = 2_000  # below this a fork costs more than it saves
CHUNKS_PER_JOB = 8  # enough chunks to even out the cores, few enough that forks cost nothing
POLL_SECONDS = 0.05  # how often the parent looks at its workers while it waits (progress bar)
_SLOT = struct.Struct("qqq")  # a chunk's (now, events left, horizon); events left -1: done
_DONE = struct.Struct("Ii")  # (chunk, exit code), written to the parent as its process ends


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass
class _Part:
    """What one worker hands back: its trees' share of the result."""

    now: int
    stopped: str
    instant_cycles: list
    runs: list  # run._Track.packed() of each of its workloads (WorkloadRuns once read back)
    sums: dict
    series: dict
    pending_counts: dict
    pending: list
    gap_reads: list  # Scheduler.gap_reads: (scan cycle, cycle), in this worker's numbering


def split_run(run, jobs: int):
    """``run`` (a fresh ``run._Run`` in fixpoint mode) on up to ``jobs`` processes; None when the
    result must come from one process instead (see the module docstring)."""
    run.begin()
    if not hasattr(os, "fork") or len(run.track) < MIN_WORKLOADS or run.s.snapshot.tas is not None:
        run.run_instants()
        return run.freeze()
    if not run.run_instants(until_cycles=STARTUP_REQUEUE_AFTER_CYCLE):
        return run.freeze()
    owner, shares = _tree_owners(run, jobs * CHUNKS_PER_JOB)
    chunks = max(owner.values(), default=0) + 1
    if chunks < 2 or jobs < 2:
        run.run_instants()
        return run.freeze()
    parts = _forked(run, owner, shares[:chunks], jobs)
    return None if parts is None else _merged(run, parts)


# -- who runs what ---------------------------------------------------------------------------
def _queue_tree(run, key: str, seen: dict) -> str | None:
    """The tree of the ClusterQueue a workload queues in (through its LocalQueue), if it exists;
    ``seen``: (namespace, LocalQueue) -> tree, filled as it goes."""
    wl = run.cluster.workloads[key]
    lq_key = (wl.namespace, wl.queue_name)
    if lq_key in seen:
        return seen[lq_key]
    cq = run.cluster.cluster_queue_name_of(wl)
    tree = seen[lq_key] = run.s.tree_of(cq) if cq and cq in run.s.snapshot.cluster_queues else None
    return tree


def _workload_trees(run, key: str, seen: dict, answers: dict) -> tuple[str, ...]:
    """Every tree a workload's events can touch, sorted: where it queues, and where it holds
    quota (a workload the input admitted to another ClusterQueue than its LocalQueue's goes
    back to the latter's queue when preempted).  ``answers``: (queue tree, ClusterQueue held)
    -> the answer, filled as it goes (most workloads share one of a few)."""
    queue_tree = _queue_tree(run, key, seen)
    cq = run.track[key].cq
    trees = answers.get((queue_tree, cq))
    if trees is None:
        found = {queue_tree}
        if cq is not None and cq in run.s.snapshot.cluster_queues:
            found.add(run.s.tree_of(cq))
        found.discard(None)
        trees = answers[(queue_tree, cq)] = tuple(sorted(found))
    return trees


def _tree_owners(run, chunks: int) -> tuple[dict[str, int], list[set[str]]]:
    """(tree -> chunk, each chunk's workloads): trees a workload links go together; the groups,
    heaviest first (by workloads), each to the lightest chunk, so the chunks in use are numbered
    from 0.  Trees with no workload, and workloads with no tree, stay with chunk 0."""
    parent: dict[str, str] = {}

    def find(t: str) -> str:
        while parent.setdefault(t, t) != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    weight: dict[str, int] = {}
    first_tree: dict[str, str | None] = {}
    seen: dict = {}
    answers: dict = {}
    for key in run.track:
        trees = _workload_trees(run, key, seen, answers)
        if not trees:
            first_tree[key] = None
            continue
        first = first_tree[key] = trees[0]
        if len(trees) > 1 or first not in parent:
            find(first)
            for t in trees[1:]:
                a, b = find(first), find(t)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        weight[first] = weight.get(first, 0) + 1
    groups: dict[str, list[str]] = {}
    for t in sorted(parent):
        groups.setdefault(find(t), []).append(t)
    load = [0] * max(1, chunks)
    owner: dict[str, int] = {}
    for _root, trees in sorted(groups.items(), key=lambda g: (-sum(weight.get(t, 0) for t in g[1]), g[0])):
        w = sum(weight.get(t, 0) for t in trees)
        i = min(range(len(load)), key=lambda j: (load[j], j))
        load[i] += w
        for t in trees:
            owner[t] = i
    shares: list[set[str]] = [set() for _ in load]
    for key, tree in first_tree.items():
        shares[owner.get(tree, 0) if tree is not None else 0].add(key)
    return owner, shares


# -- the workers ---------------------------------------------------------------------------
class _Board:
    """Each chunk's clock, events left and horizon, in memory the processes share (the progress
    bar).  A chunk not started yet shows clock -1; a finished one, events left -1."""

    def __init__(self, chunks: int, start: int, horizon: int = 0):
        self.mem = mmap.mmap(-1, _SLOT.size * chunks)
        self.chunks, self.start, self.horizon = chunks, start, horizon
        for i in range(chunks):
            self.put(i, -1, 0)

    def put(self, i: int, now: int, left: int, horizon: int = 0) -> None:
        _SLOT.pack_into(self.mem, i * _SLOT.size, now, left, horizon)

    def merged(self) -> tuple[int, int, int]:
        """(the clock of the run so far: the earliest among the running chunks, else the latest
        any reached; every event not yet run; the latest event time any chunk queued)."""
        slots = [_SLOT.unpack_from(self.mem, i * _SLOT.size) for i in range(self.chunks)]
        running = [now for now, left, _h in slots if now >= 0 and left >= 0]
        now = min(running) if running else max([self.start] + [now for now, _l, _h in slots])
        return now, sum(max(0, left) for _n, left, _h in slots), max([self.horizon] + [h for _n, _l, h in slots])


def _work(run, owner: dict[str, int], i: int, keys: set[str], board: _Board, events: list) -> _Part:
    """Chunk ``i``'s trees (and workloads, ``keys``; ``events``: theirs, a heap) to the end of
    the run."""
    run.events.take(events)
    board.put(i, run.now, len(events), run.events.latest)
    run.instant_cycles = []
    run.progress = lambda now, left, horizon: board.put(i, now, left, horizon)
    run.s.gap_reads = []
    run.run_instants()
    board.put(i, run.now, -1, run.events.latest)
    snap = run.s.snapshot
    cqs = [name for name in sorted(snap.cluster_queues) if owner.get(run.s.tree_of(name), 0) == i]
    return _Part(run.now, run.stopped, run.instant_cycles, [run.track[k].packed() for k in sorted(keys)],
                 run.ledger.sums_of(cqs), {cq: run.series[cq] for cq in cqs if cq in run.series},
                 {cq: len(run.s.queues[cq].active) + len(run.s.queues[cq].inadmissible) for cq in cqs},
                 [p for p in run.s.pending() if p.workload in keys], run.s.gap_reads)


def _child(run, owner: dict[str, int], i: int, keys: set[str], board: _Board, events: list, out,
           done: int) -> None:
    """A forked process for chunk ``i``: its part, pickled into ``out``, then its number on the
    ``done`` pipe; never returns (no atexit handlers, no flush of the parent's buffers)."""
    code = 1
    try:
        pickle.dump(_work(run, owner, i, keys, board, events), out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
        code = 0
    except BaseException:  # noqa: BLE001 - the parent sees the exit status and runs it alone
        code = 1
    finally:
        try:
            # atomic (under PIPE_BUF): the parent starts the next chunk now, not once this
            # process's memory is torn down
            os.write(done, _DONE.pack(i, code))
        finally:
            os._exit(code)


class _Pool:
    """The chunks' processes (``_forked`` starts at most ``jobs`` at a time); parts read back as
    each one ends.  Raises OSError, having released what it took, when a resource is missing."""

    def __init__(self, run, owner: dict[str, int], shares: list[set[str]]):
        self.run, self.owner, self.shares = run, owner, shares
        self.board = _Board(len(shares), run.now, run.events.latest)
        self.outs: list = []
        try:
            for _ in shares:
                self.outs.append(tempfile.TemporaryFile())
            self.done_r, self.done_w = os.pipe()
        except OSError:
            for out in self.outs:
                out.close()
            raise
        self.running: dict[int, int] = {}  # chunk -> pid
        self.through: dict[int, int | None] = {}  # chunk -> pid still to wait for (None: waited), part unread
        self.parts: list[_Part | None] = [None] * len(shares)
        # split here, once: a child filtering the whole queue would copy its every page
        self.events = run.events.split({key: i for i, keys in enumerate(shares) for key in keys}, len(shares))
        for i, heap in enumerate(self.events):
            self.board.put(i, -1, len(heap))

    def start(self, i: int) -> bool:
        try:
            pid = os.fork()
        except OSError:  # e.g. a process limit
            return False
        if pid == 0:
            _child(self.run, self.owner, i, self.shares[i], self.board, self.events[i], self.outs[i], self.done_w)
        self.running[i] = pid
        return True

    def reap(self) -> bool:
        """Wait until some chunk's process is through (reporting progress meanwhile): its core
        is free for the next chunk.  Parts already through are read first, while the chunks
        started after them run.  False when a process failed or a part does not read back."""
        if not self.collect():
            return False
        progress = self.run.progress
        while True:
            ready, _, _ = select.select([self.done_r], [], [], POLL_SECONDS if progress is not None else 1.0)
            data = os.read(self.done_r, 4096) if ready else b""
            freed = False
            for i, code in _DONE.iter_unpack(data[:len(data) - len(data) % _DONE.size]):
                pid = self.running.pop(i, None)
                if pid is None:
                    continue
                self.through[i] = pid
                freed = True
                if code != 0:
                    return False
            for i, pid in list(self.running.items()):  # one killed by a signal writes nothing
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    del self.running[i]
                    self.through[i] = None
                    freed = True
                    if os.waitstatus_to_exitcode(status) != 0:
                        return False
            if progress is not None:
                progress(*self.board.merged())
            if freed:
                return True

    def collect(self) -> bool:
        """Wait for the processes that said they are through, and read their parts."""
        while self.through:
            i, pid = self.through.popitem()
            if pid is not None:
                _, status = os.waitpid(pid, 0)
                if os.waitstatus_to_exitcode(status) != 0:
                    return False
            if not self._read(i):
                return False
        return True

    def _read(self, i: int) -> bool:
        out = self.outs[i]
        try:
            out.seek(0)
            part = pickle.load(out)
        except (OSError, EOFError, pickle.UnpicklingError):
            return False
        finally:
            out.close()
        # while the other chunks still run: a core is free once the last ones run alone
        part.runs = sorted((workload_run(r) for r in part.runs), key=RUN_ORDER)
        self.parts[i] = part
        return True

    def close(self) -> None:
        # interrupted or failed: no process outlives the run
        for pid in list(self.running.values()) + [p for p in self.through.values() if p is not None]:
            _kill(pid)
        self.running.clear()
        self.through.clear()
        for out in self.outs:
            out.close()
        os.close(self.done_r)
        os.close(self.done_w)


def _forked(run, owner: dict[str, int], shares: list[set[str]], jobs: int) -> list[_Part] | None:
    """Every chunk's part, each run in a forked process, heaviest first; None when a part is
    missing (the caller then runs everything in one process): no shared memory, temporary file,
    pipe or process to be had, a process that failed, or a part that does not read back."""
    try:
        pool = _Pool(run, owner, shares)
    except OSError:
        return None
    try:
        for i in sorted(range(len(shares)), key=lambda c: (-len(shares[c]), c)):
            if len(pool.running) >= jobs and not pool.reap():
                return None
            if not pool.start(i):
                return None
        while pool.running:
            if not pool.reap():
                return None
        if not pool.collect():
            return None
        return list(pool.parts)
    finally:
        pool.close()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


# -- the merge -----------------------------------------------------------------------------
def _merged(run, parts: list[_Part]):
    if any(p.stopped not in ("drained", "until") for p in parts):
        return None
    before = run.cycles  # the cycles before the split (the parent ran no further)
    busiest: dict[int, int] = {}
    for p in parts:
        for t, n in p.instant_cycles:
            busiest[t] = max(busiest.get(t, 0), n)
    if not _numbering_agrees(before, parts, busiest):
        return None
    run.now = max(p.now for p in parts)
    run.stopped = "until" if any(p.stopped == "until" for p in parts) else "drained"
    for p in parts:
        run.ledger.adopt(p.sums)
    runs = sorted((r for p in parts for r in p.runs), key=RUN_ORDER)  # each part's are in this order already
    counts = {cq: n for p in parts for cq, n in p.pending_counts.items()}
    series = {cq: s for p in parts for cq, s in p.series.items()}
    pending = tuple(sorted((w for p in parts for w in p.pending), key=lambda w: w.workload))
    return frozen_result(run, run.end(), runs, run.ledger, counts, series, pending, None,
                         before + sum(busiest.values()))


def _numbering_agrees(before: int, parts: list[_Part], busiest: dict[int, int]) -> bool:
    """Does every worker's read of "are these two cycles adjacent" (``_Part.gap_reads``) give what
    it gives in one process?  There, instant ``t`` runs cycles numbered from one past all the
    cycles before it (``busiest``: the cycles of each instant); a worker's instant may have run
    fewer.  The cycles before the fork are numbered alike."""
    first: dict[int, int] = {}  # instant -> its first cycle number in one process
    n = before
    for t in sorted(busiest):
        first[t], n = n + 1, n + busiest[t]
    for p in parts:
        if not p.gap_reads:
            continue
        one_process: dict[int, int] = {}  # this worker's cycle number -> one process's
        mine = before
        for t, count in p.instant_cycles:
            for d in range(count):
                one_process[mine + 1 + d] = first[t] + d
            mine += count
        for a, b in p.gap_reads:
            ga, gb = one_process.get(a, a), one_process.get(b, b)
            if (a < b - 1) != (ga < gb - 1):
                return False
    return True
