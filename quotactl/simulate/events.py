"""The event queue in virtual time: completions and arrivals, popped one instant at a time.

At one instant the contract's order holds: every completion first, then every arrival (then
the driver runs the cycles).  A completion carries the admission it ends (a token): when the
workload is preempted first, the token no longer matches and the stale event is dropped when
popped (lazy deletion: no search through the heap).
"""

from __future__ import annotations

import heapq
from typing import NamedTuple

# the order at one instant (docs/simulate.md): completions, PodsReady transitions, check
# transitions, PodsReady timeouts, then arrivals (backoff expiries among them)
FINISH = 0
PODS_READY = 1
CHECK = 2
TIMEOUT = 3
ARRIVE = 4


class Instant(NamedTuple):
    at: int  # microseconds from t0
    finishes: list[tuple[str, int]]  # (workload, token), by workload key
    arrivals: list[str]  # workload keys, by key
    # the workload lifecycle's events (simulate/phases.py), each (workload, token), by key
    ready: list[tuple[str, int]] | tuple = ()
    checks: list[tuple[str, int]] | tuple = ()
    timeouts: list[tuple[str, int]] | tuple = ()


class EventQueue:
    __slots__ = ("_heap", "latest")

    def __init__(self):
        self._heap: list[tuple[int, int, str, int]] = []  # (time, kind, workload, token)
        self.latest = 0  # the latest time an event was ever queued for: the progress bar's horizon

    def __len__(self) -> int:
        return len(self._heap)

    def finish(self, at: int, key: str, token: int) -> None:
        heapq.heappush(self._heap, (at, FINISH, key, token))
        if at > self.latest:
            self.latest = at

    def lifecycle(self, at: int, kind: int, key: str, token: int) -> None:
        """A PodsReady transition, check transition or PodsReady timeout of one admission."""
        heapq.heappush(self._heap, (at, kind, key, token))
        if at > self.latest:
            self.latest = at

    def arrive(self, at: int, key: str) -> None:
        heapq.heappush(self._heap, (at, ARRIVE, key, 0))
        if at > self.latest:
            self.latest = at

    def load_arrivals(self, arrivals: list[tuple[int, str]]) -> None:
        """Many arrivals at once (the whole trace): one heapify instead of a push each."""
        self._heap.extend((at, ARRIVE, key, 0) for at, key in arrivals)
        heapq.heapify(self._heap)
        self.latest = max([self.latest] + [at for at, _key in arrivals])

    def split(self, part_of: dict[str, int], parts: int) -> list[list]:
        """The events in ``parts`` heaps, by ``part_of`` their workload (0 when it has none):
        each worker of split.py takes its own with ``take`` and never reads the others."""
        heaps: list[list] = [[] for _ in range(parts)]
        for e in self._heap:
            heaps[part_of.get(e[2], 0)].append(e)
        for h in heaps:
            heapq.heapify(h)
        return heaps

    def take(self, heap: list) -> None:
        """These events instead (one of ``split``'s heaps)."""
        self._heap = heap

    def keys_if_few(self, most: int) -> set[str] | None:
        """The workloads of every queued event when there are at most ``most`` events, else None."""
        if len(self._heap) > most:
            return None
        return {e[2] for e in self._heap}

    def next_time(self) -> int | None:
        return self._heap[0][0] if self._heap else None

    def pop_instant(self) -> Instant:
        """Every event at the earliest time, completions first; the heap order is (time, kind,
        key), so each list comes out sorted by workload key."""
        heap = self._heap
        at = heap[0][0]
        finishes, arrivals = [], []
        life: tuple[list, list, list] | None = None
        while heap and heap[0][0] == at:
            _, kind, key, token = heapq.heappop(heap)
            if kind == FINISH:
                finishes.append((key, token))
            elif kind == ARRIVE:
                arrivals.append(key)
            else:
                life = life or ([], [], [])
                life[kind - PODS_READY].append((key, token))
        if life is None:
            return Instant(at, finishes, arrivals)
        return Instant(at, finishes, arrivals, *life)
