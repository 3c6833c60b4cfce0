"""What limits Kueue's scheduler-performance harness besides its cycles (docs/simulate-calibration.md
section 5): the API client's token bucket that every Workload write of Kueue goes through, and the
batched requeue of parked workloads after capacity is freed.  Integer microseconds throughout, so
a run gives the same bytes on every machine.
"""

from __future__ import annotations

import heapq

from quotactl.simulate.clock import US


class WriteBucket:
    """client-go's token bucket (``flowcontrol.NewTokenBucketRateLimiter``, golang.org/x/time/rate
    ``Limiter.Wait``): ``rate`` writes per second, ``burst`` at once when it has been idle; each
    write reserves the next token when it is asked for, so writes go through in the order they
    were asked for (first come, first served).  Kept as the theoretical arrival time of the
    generic cell rate algorithm, which gives the same times as counting tokens, in integers."""

    __slots__ = ("period", "tolerance", "tat", "writes")

    def __init__(self, rate: float, burst: int):
        if rate <= 0 or burst < 1:
            raise ValueError("a write bucket needs a rate above 0 and a burst of at least 1")
        self.period = max(1, round(US / rate))  # microseconds per token
        self.tolerance = (burst - 1) * self.period
        self.tat = 0  # theoretical arrival time of the next write
        self.writes = 0

    def take(self, at: int) -> int:
        """A write asked for at ``at``: when it goes through (``at`` or later)."""
        through = max(at, self.tat - self.tolerance)
        self.tat = max(self.tat, at) + self.period
        self.writes += 1
        return through


class BatchedRequeue:
    """Kueue's requeuer (``workqueueRequeuer.notifyCohort``: ``AddAfter(cohort, batchPeriod)`` on a
    delaying queue): the first notification for a cohort tree schedules its requeue ``batch``
    later; notifications for that tree before then join it (the queue holds an item once, at its
    earliest time)."""

    __slots__ = ("batch", "_due", "_heap")

    def __init__(self, batch: int):
        if batch <= 0:
            raise ValueError("a batched requeue needs a period above 0")
        self.batch = batch
        self._due: dict[str, int] = {}  # tree -> when its requeue runs
        self._heap: list[tuple[int, str]] = []

    def __len__(self) -> int:
        return len(self._due)

    def notify(self, tree: str, at: int) -> None:
        if tree not in self._due:
            self._due[tree] = at + self.batch
            heapq.heappush(self._heap, (at + self.batch, tree))

    def next_time(self) -> int | None:
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now: int) -> list[str]:
        """The trees whose requeue is due at or before ``now``, in name order."""
        out = []
        while self._heap and self._heap[0][0] <= now:
            _, tree = heapq.heappop(self._heap)
            del self._due[tree]
            out.append(tree)
        return sorted(out)
