"""The first line of ``explain``: the verdict with its number and the next step, in words.

Built here, from the engine's own results (the assignment's quota checks, the victims, the
holders, the counterfactual changes, a blocker's fix), so every renderer prints the same
sentence and none computes it:

    team-a/big: Pending — needs 4 more cpu than ClusterQueue cq-a can ever have (max 8)
    team-a/big: Pending — preempting team-b/etl-3 (InCohortReclamation) admits it
    team-a/big: Admitted in cq-a (flavor default)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.assign import EXCEEDS_MAX_QUOTA, Assignment, QuotaCheck

_NAMED = 2  # victims or holders named on the line; the rest are counted


@dataclass(frozen=True)
class Headline:
    """``state`` is the status, with where it holds quota when admitted (``Admitted in cq-a
    (flavor default)``); ``text`` the number and the next step ("" when the state says it all)."""

    state: str
    text: str = ""

    def line(self, key: str) -> str:
        return f"{key}: {self.state}" + (f" — {self.text}" if self.text else "")

    @property
    def short(self) -> str:
        """The line without the workload and a plain status (a table's verdict cell)."""
        return self.text or self.state


def _names(items: Sequence[str]) -> str:
    named = list(items[:_NAMED])
    if len(items) > _NAMED:
        named.append(f"{len(items) - _NAMED} more")
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _failing_checks(a: Assignment) -> list[QuotaCheck]:
    """The quota checks that failed, of the pod sets that do not fit, in scan order."""
    return [c for ps in a.pod_sets if not ps.is_fit for att in ps.attempts for c in att.checks if c.reason is not None]


def _least_short(checks: list[QuotaCheck], short) -> list[QuotaCheck]:
    """Per resource, the flavor's check that is least short (``short(check)``): the best flavor."""
    best: dict[str, QuotaCheck] = {}
    for c in checks:
        if c.resource not in best or short(c) < short(best[c.resource]):
            best[c.resource] = c
    return list(best.values())


def exceeds_max_quota(a: Assignment, cluster_queue: str) -> str:
    """``needs 4 more cpu than ClusterQueue cq-a can ever have (max 8)``: per resource, the flavor
    that comes closest (its potential available: nominal plus all it could borrow)."""
    failing = _failing_checks(a)
    checks = _least_short([c for c in failing if c.no_fit_reason == EXCEEDS_MAX_QUOTA],
                          lambda c: c.value - c.potential_available)
    if not checks:
        return f"the request exceeds what ClusterQueue {cluster_queue} can ever have"
    needs = " and ".join(f"{format_amount(c.resource, c.value - c.potential_available)} more {c.resource}"
                         for c in checks)
    most = " and ".join(format_amount(c.resource, c.potential_available) for c in checks)
    where = f" in flavor {checks[0].flavor}" if len(checks) == 1 and len({c.flavor for c in failing}) > 1 else ""
    return f"needs {needs} than ClusterQueue {cluster_queue} can ever have{where} (max {most})"


def short_of(a: Assignment) -> list[QuotaCheck]:
    """The checks that leave the workload waiting: per resource, the best flavor's."""
    return _least_short(_failing_checks(a), lambda c: c.missing)


def waiting_for(checks: list[QuotaCheck], holders: dict[tuple[str, str], list[str]]) -> str:
    """``waiting for 24Gi more memory in flavor on-demand, held by a (64Gi) and b (48Gi)``."""
    parts = []
    for c in checks:
        held = holders.get((c.flavor, c.resource), [])
        parts.append(f"{format_amount(c.resource, c.missing)} more {c.resource} in flavor {c.flavor}"
                     + (f", held by {_names(held)}" if held else ""))
    return "waiting for " + "; ".join(parts) if parts else "waiting for quota"


def preempting(victims: Sequence[tuple[str, str]]) -> str:
    """``preempting team-b/etl-3 (InCohortReclamation) admits it``."""
    return f"preempting {_names([f'{w} ({reason})' for w, reason in victims])} admits it"


def no_matching_flavor(cluster_queue: str, eligibility: Sequence[str], fix: str | None) -> str:
    why = f": {eligibility[0]}" if eligibility else ""
    return f"no flavor of ClusterQueue {cluster_queue} matches the workload{why}" + (f"; {fix}" if fix else "")


def blocked(detail: str, fix: str | None) -> str:
    """A queue or nomination check's finding and its fix."""
    return f"{detail}: {fix}" if fix else detail


def fits(ahead: int, borrowing_from: str | None, reduced: str | None) -> str:
    """``fits now: Kueue admits it in the next cycle`` (or once the workloads ahead are through)."""
    size = f" with fewer pods ({reduced})" if reduced else ""
    when = ("in the next cycle" if not ahead else
            f"when it reaches the head of its queue ({ahead} workload{'s' if ahead != 1 else ''} ahead of it)")
    return f"fits now{size}: Kueue admits it {when}" + (f", borrowing from cohort {borrowing_from}"
                                                        if borrowing_from else "")


def admitted(cluster_queue: str | None, flavors: Sequence[str], reserved_only: bool) -> str:
    """``Admitted in cq-a (flavor default)``; ``QuotaReserved in …`` before its admission checks pass."""
    which = f" ({'flavor' if len(flavors) == 1 else 'flavors'} {', '.join(flavors)})" if flavors else ""
    return f"{'QuotaReserved' if reserved_only else 'Admitted'} in {cluster_queue or '-'}{which}"
