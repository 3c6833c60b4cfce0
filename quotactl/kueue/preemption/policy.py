"""A ClusterQueue's preemption policies: which workloads a policy lets a preemptor take, the
words that say why one is not taken, and when the queue may preempt while borrowing.  The one
copy of these rules: classical and fair-sharing preemption, the flavor assigner, ``explain``,
``preempt`` and the scheduler read them here.

Source: ``pkg/scheduler/preemption/common/preemption_policy.go: SatisfiesPreemptionPolicy``
(the SchedulerTimestampPreemptionBuffer gate, off by default, is not modelled),
``pkg/scheduler/preemption/classical/hierarchical_preemption.go: IsBorrowingWithinCohortAllowed``,
``pkg/scheduler/flavorassigner/flavorassigner.go: canPreemptWhileBorrowing``; the values are
``apis/kueue/v1beta2 PreemptionPolicy`` and ``BorrowWithinCohortPolicy``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from quotactl.model.kueue import Preemption

# withinClusterQueue / reclaimWithinCohort values (borrowWithinCohort.policy: Never, LowerPriority)
NEVER = "Never"
LOWER_PRIORITY = "LowerPriority"
LOWER_OR_NEWER_EQUAL_PRIORITY = "LowerOrNewerEqualPriority"
ANY = "Any"

# the policies under which some workload may be preempted (any other value preempts nothing)
_PREEMPTING = frozenset((LOWER_PRIORITY, LOWER_OR_NEWER_EQUAL_PRIORITY, ANY))


class Ranked(Protocol):
    """What the policy compares of a preemptor and a candidate: the effective priority and the
    queue-order timestamp (read only for LowerOrNewerEqualPriority at equal priorities)."""

    @property
    def priority(self) -> int: ...

    @property
    def queue_order_timestamp(self) -> datetime: ...


def satisfies_preemption_policy(preemptor: Ranked, candidate: Ranked, policy: str) -> bool:
    """``SatisfiesPreemptionPolicy``: ``policy`` lets ``preemptor`` preempt ``candidate``.
    LowerPriority: a lower effective priority; LowerOrNewerEqualPriority: that, or an equal one
    and a later queue-order timestamp; Any: always; Never (or any other value): never."""
    if policy == LOWER_PRIORITY:
        return preemptor.priority > candidate.priority
    if policy == LOWER_OR_NEWER_EQUAL_PRIORITY:
        incoming, other = preemptor.priority, candidate.priority
        return incoming > other or (incoming == other
                                    and preemptor.queue_order_timestamp < candidate.queue_order_timestamp)
    return policy == ANY


def preempts_anything(policy: str) -> bool:
    """Some candidate can satisfy ``policy`` (it is not Never or an unknown value)."""
    return policy in _PREEMPTING


def highest_preemptable_priority(policy: str, preemptor_priority: int) -> int | None:
    """The highest candidate priority ``satisfies_preemption_policy`` can accept under a policy
    that ``preempts_anything`` (None: no bound, Any).  Candidates in priority order can be
    scanned up to it and no further."""
    if policy == LOWER_PRIORITY:
        return preemptor_priority - 1
    if policy == LOWER_OR_NEWER_EQUAL_PRIORITY:
        return preemptor_priority
    return None


def compares_queue_order_timestamps(p: Preemption) -> bool:
    """A policy of the ClusterQueue reads the workloads' queue-order timestamps, not only their
    priorities (LowerOrNewerEqualPriority on withinClusterQueue or reclaimWithinCohort)."""
    return LOWER_OR_NEWER_EQUAL_PRIORITY in (p.within_cluster_queue, p.reclaim_within_cohort)


def policy_rejection(field_name: str, policy: str, preemptor_priority: int, candidate_priority: int) -> str:
    """Why ``policy`` (the ClusterQueue's ``field_name``) does not let the preemptor take the
    candidate, for reports (called when ``satisfies_preemption_policy`` said no)."""
    if policy == NEVER:
        return f"{field_name} is Never"
    what = "not lower, and not equal and newer" if policy == LOWER_OR_NEWER_EQUAL_PRIORITY else "not lower"
    return f"priority {candidate_priority} is {what} than the preemptor's {preemptor_priority} ({field_name}: {policy})"


def borrowing_within_cohort_allowed(p: Preemption) -> bool:
    """``IsBorrowingWithinCohortAllowed``: borrowWithinCohort is set with a policy other than
    Never (its maxPriorityThreshold then applies)."""
    return p.borrow_within_cohort_policy not in (None, "", NEVER)


def can_preempt_while_borrowing(p: Preemption, fair_sharing: bool) -> bool:
    """``canPreemptWhileBorrowing``: the flavor assigner may try preemption for a request above
    nominal quota: borrowWithinCohort allows it, or fair sharing is on and reclaimWithinCohort
    is not Never."""
    return borrowing_within_cohort_allowed(p) or (fair_sharing and p.reclaim_within_cohort != NEVER)
