"""When Kueue's scheduler runs its cycles: the clock model of ``--cycle-interval`` and the named
presets of ``--cadence``.

``interval`` (D): one cycle at each tick ``t0 + k*D`` (the grid is anchored at t0), one head per
ClusterQueue per cycle.  ``interval = 0`` is the default fixpoint mode: at every instant with an
event, cycles run until nothing changes.

``admission_cost`` (c): virtual time each admission of a cycle takes (Kueue writes every
admission to the API server inside the cycle).  A cycle at tick tau with k admissions admits its
i-th workload at ``tau + i*c`` and ends at ``tau + k*c``; victims are released at the end, and
the next cycle runs at the first tick at or after that end (always after tau).  c = 0: every
admission at tau, the next cycle at the next tick.  What limits a real harness is both the
cycle's pace and the time per admission; this is what a calibration can fit.

What else limits Kueue's own harness (docs/simulate-calibration.md section 5), each off at 0:

``write_rate`` / ``write_burst``: Kueue's API client token bucket (r writes per second, burst b),
shared by every Workload write (``limits.WriteBucket``).  An admission is decided, and counted as
admitted, at its cycle (Kueue stamps the Admitted condition before the write), and holds its
quota from then on, but its runtime starts only when its write goes through; the writes Kueue
waits for inside the cycle (each eviction of a victim, each status change of a head that stays
pending) end the cycle no earlier than they go through.

``requeue_batch``: after a completion, the parked workloads of its cohort tree come back to their
queues this long later, once for all completions in between (Kueue's requeueBatchPeriod,
``limits.BatchedRequeue``); 0: at once, as the contract's default.

``create_rate`` / ``create_burst``: the harness runner's own client token bucket for creating
Workloads (docs/simulate-calibration.md section 2): the arrivals, in their order, go through it,
so a trace that asks for more creates per second than the runner can make arrives later (a
workload's wait counts from its actual creation, as Kueue's recorder measures it).

These need a cycle interval: the fixpoint mode has no cycle time to spend.  A preset names
one set of values and says where its numbers come from.
"""

from __future__ import annotations

from dataclasses import dataclass

from quotactl.simulate.clock import US


@dataclass(frozen=True)
class Cadence:
    interval: int  # microseconds between ticks; 0 = cycles to the fixpoint at each event
    admission_cost: int = 0  # microseconds of virtual time per admission in a cycle
    basis: str = ""  # where the numbers come from
    write_rate: float = 0  # Workload writes per second through Kueue's client; 0 = unlimited
    write_burst: int = 0  # the client's burst (tokens when idle); needs write_rate
    requeue_batch: int = 0  # microseconds from a completion to the requeue of its tree's parked workloads
    create_rate: float = 0  # arrivals per second the creating client allows; 0 = unlimited
    create_burst: int = 0  # that client's burst; needs create_rate

    def __post_init__(self):
        if min(self.interval, self.admission_cost, self.write_rate, self.write_burst, self.requeue_batch,
               self.create_rate, self.create_burst) < 0:
            raise ValueError("a cadence's interval, admission cost, rates, bursts and requeue batch "
                             "are never negative")
        if (self.admission_cost or self.write_rate or self.requeue_batch or self.create_rate) and not self.interval:
            raise ValueError("an admission cost, a write or create rate or a requeue batch needs a cycle "
                             "interval (the fixpoint mode has no cycle time)")
        if bool(self.write_rate) != bool(self.write_burst) or bool(self.create_rate) != bool(self.create_burst):
            raise ValueError("a rate and its burst go together")

    def limits(self) -> dict:
        """The harness limits in force, as the reports name them (rates per second, times in
        microseconds); empty for the contract's plain modes."""
        named = {"writeRate": self.write_rate, "writeBurst": self.write_burst, "requeueBatch": self.requeue_batch,
                 "createRate": self.create_rate, "createBurst": self.create_burst}
        return {k: v for k, v in named.items() if v}

    @property
    def ticks(self) -> bool:
        return self.interval > 0

    def next_tick(self, earliest: int) -> int:
        """The first tick of the grid at or after ``earliest`` (microseconds from t0)."""
        d = self.interval
        return -(-earliest // d) * d

    def cycle_end(self, tick: int, admissions: int) -> int:
        return tick + admissions * self.admission_cost


FIXPOINT = Cadence(0, 0, "cycles to the fixpoint at every instant with an event")

# --cadence NAME.  kueue-harness: Kueue's scheduler-performance harness (test/performance/scheduler),
# calibrated against the per-class mean time to admission and usage of both of Kueue's published
# runs (baseline and large-scale rangespec.yaml); docs/simulate-calibration.md section 7 has the
# search.  Kueue's own settings as they are: its client's 50 writes/s with a burst of 100
# (minimalkueue main.go), requeueBatchPeriod 1 s (queue manager), the runner's creates at
# 1,000/s with a burst of 2,000 (envtest's client config); the cycle interval (10 ms) is the one
# value fitted: the best of a grid from 0.01 s to 5 s (loss 0.186, the mean relative error over the
# six class means).
PRESETS: dict[str, Cadence] = {
    "kueue-harness": Cadence(interval=US // 100, admission_cost=0, write_rate=50, write_burst=100,
                             requeue_batch=US, create_rate=1000, create_burst=2000,
                             basis="calibrated on Kueue's baseline and large-scale scheduler-performance "
                                   "runs (docs/simulate-calibration.md): Kueue's client limits and requeue "
                                   "batch as they are, the cycle interval fitted"),
}


def preset(name: str) -> Cadence:
    """The preset ``name``; KeyError names the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown cadence {name!r}; known: {', '.join(sorted(PRESETS))}") from None
