"""Usage of nominal quota over time, per ClusterQueue and resource, kept as the events happen.

The integral of a step function needs no replay: with usage ``U0`` at t0 and changes ``d_i`` at
``t_i``, the area up to ``E`` is ``U0*E + sum(d_i)*E - sum(d_i*t_i)``.  So each change adds to
two sums (in any order), and the time average is read once at the end."""

from __future__ import annotations

from quotactl.kueue.quota import Snapshot


class UsageLedger:
    __slots__ = ("_snapshot", "_initial", "_sums", "_nominal")

    def __init__(self, snapshot: Snapshot):
        self._snapshot = snapshot
        self._initial: dict[str, dict] = {name: dict(cq.usage) for name, cq in snapshot.cluster_queues.items()}
        self._sums: dict[str, dict] = {}  # cq -> fr -> [sum of changes, sum of change * time]
        self._nominal: dict[str, dict[str, int]] = {}
        for name, cq in snapshot.cluster_queues.items():
            per_resource: dict[str, int] = {}
            for (_flavor, resource), q in cq.quotas.items():
                per_resource[resource] = per_resource.get(resource, 0) + q.nominal
            self._nominal[name] = per_resource

    def nominal(self, cq: str) -> dict[str, int]:
        """resource -> the ClusterQueue's nominal quota summed over its flavors (Kueue amounts)."""
        return dict(self._nominal[cq])

    def change(self, cq: str, usage: dict | None, sign: int, t: int) -> None:
        sums = self._sums.setdefault(cq, {})
        for fr, v in (usage or {}).items():
            row = sums.get(fr)
            if row is None:
                row = sums[fr] = [0, 0]
            row[0] += sign * v
            row[1] += sign * v * t

    def sums_of(self, cqs) -> dict:
        """The change sums of these ClusterQueues (a worker's part of the run: split.py)."""
        return {cq: self._sums[cq] for cq in cqs if cq in self._sums}

    def adopt(self, sums: dict) -> None:
        """Take another process's change sums for its ClusterQueues (they include the changes
        both made before they split)."""
        self._sums.update(sums)

    def fractions_now(self, cq: str) -> tuple:
        """((resource, used / nominal), ...) at this moment (None where the nominal quota is 0)."""
        return _fractions(self._per_resource(self._snapshot.cluster_queues[cq].usage), self._nominal[cq])

    def fractions_over(self, cq: str, end: int) -> dict:
        """resource -> time-averaged used / nominal over [0, end] (the usage at the end when end is 0)."""
        if end <= 0:
            return dict(self.fractions_now(cq))
        area: dict = {}
        initial, sums = self._initial[cq], self._sums.get(cq, {})
        for fr in set(initial) | set(sums):
            d, dt = sums.get(fr, (0, 0))
            area[fr] = initial.get(fr, 0) * end + d * end - dt
        per_resource = {r: v / end for r, v in self._per_resource(area).items()}
        return dict(_fractions(per_resource, self._nominal[cq]))

    @staticmethod
    def _per_resource(by_fr: dict) -> dict:
        out: dict = {}
        for (_flavor, resource), v in by_fr.items():
            out[resource] = out.get(resource, 0) + v
        return out


def _fractions(used: dict, nominal: dict) -> tuple:
    out = []
    for resource in sorted(set(used) | set(nominal)):
        n = nominal.get(resource, 0)
        out.append((resource, round(used.get(resource, 0) / n, 6) if n else None))
    return tuple(out)
