"""The preemption-policy rules (quotactl/kueue/preemption/policy.py) against Kueue's own cases.

The table of ``test_satisfies_preemption_policy`` is Kueue's ``TestSatisfiesPreemptionPolicy``
(``pkg/scheduler/preemption/common/preemption_policy_test.go``), less the cases of gates quotactl
does not model (SchedulerTimestampPreemptionBuffer; PriorityBoost cases are kept as the
effective priorities they produce, which is what the rule compares).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotactl.kueue.preemption.policy import (
    ANY,
    LOWER_OR_NEWER_EQUAL_PRIORITY,
    LOWER_PRIORITY,
    NEVER,
    borrowing_within_cohort_allowed,
    can_preempt_while_borrowing,
    compares_queue_order_timestamps,
    highest_preemptable_priority,
    policy_rejection,
    preempts_anything,
    satisfies_preemption_policy,
)
from quotactl.model.kueue import Preemption

NOW = datetime(2026, 1, 1, tzinfo=UTC)
POLICIES = (NEVER, LOWER_PRIORITY, LOWER_OR_NEWER_EQUAL_PRIORITY, ANY, "SomethingElse")


class W(NamedTuple):
    priority: int
    queue_order_timestamp: datetime = NOW


@pytest.mark.parametrize(("preemptor", "candidate", "policy", "want"), [
    pytest.param(W(10), W(5), LOWER_PRIORITY, True, id="LowerPriority: preemptor has higher priority"),
    pytest.param(W(10), W(10), LOWER_PRIORITY, False, id="LowerPriority: preemptor has same priority"),
    pytest.param(W(10, NOW), W(10, NOW), LOWER_OR_NEWER_EQUAL_PRIORITY, False,
                 id="LowerOrNewerEqualPriority: same priority, same timestamp"),
    pytest.param(W(10, NOW + timedelta(minutes=1)), W(10, NOW), LOWER_OR_NEWER_EQUAL_PRIORITY, False,
                 id="LowerOrNewerEqualPriority: same priority, the candidate is older"),
    pytest.param(W(10, NOW), W(10, NOW + timedelta(minutes=1)), LOWER_OR_NEWER_EQUAL_PRIORITY, True,
                 id="LowerOrNewerEqualPriority: same priority, the candidate is newer"),
    pytest.param(W(10, NOW), W(10, NOW + timedelta(minutes=6)), ANY, True, id="PreemptionPolicyAny"),
    pytest.param(W(10, NOW), W(10, NOW + timedelta(minutes=6)), NEVER, False, id="PreemptionPolicyNever"),
    # PriorityBoost: 100 boosted to 150 against 200
    pytest.param(W(200), W(150), LOWER_PRIORITY, True, id="LowerPriority: effective priorities 200 > 150"),
    pytest.param(W(150), W(200), LOWER_PRIORITY, False, id="LowerPriority: boost makes low-priority immune"),
    pytest.param(W(200, NOW), W(200, NOW + timedelta(seconds=1)), LOWER_OR_NEWER_EQUAL_PRIORITY, True,
                 id="LowerOrNewerEqualPriority: equal effective priority, older preemptor"),
    pytest.param(W(200, NOW + timedelta(seconds=1)), W(200, NOW), LOWER_OR_NEWER_EQUAL_PRIORITY, False,
                 id="LowerOrNewerEqualPriority: equal effective priority, newer preemptor"),
    pytest.param(W(50), W(300), ANY, True, id="Any: always satisfies regardless of priority"),
    pytest.param(W(50), W(5), "SomethingElse", False, id="an unknown value preempts nothing"),
])
def test_satisfies_preemption_policy(preemptor, candidate, policy, want):
    assert satisfies_preemption_policy(preemptor, candidate, policy) is want


class _NoTimestamp(NamedTuple):
    priority: int

    @property
    def queue_order_timestamp(self):
        raise AssertionError("the timestamp is read only to break a tie of priorities")


@pytest.mark.parametrize("policy", POLICIES)
def test_timestamps_are_read_only_for_equal_priorities_under_lower_or_newer_equal(policy):
    # the scheduler computes a candidate's queue-order timestamp lazily: the rule must not ask for it
    for incoming, other in ((10, 5), (5, 10)):
        satisfies_preemption_policy(_NoTimestamp(incoming), _NoTimestamp(other), policy)
    if policy != LOWER_OR_NEWER_EQUAL_PRIORITY:
        satisfies_preemption_policy(_NoTimestamp(7), _NoTimestamp(7), policy)


@given(st.sampled_from(POLICIES), st.integers(-5, 5), st.integers(-5, 5), st.integers(-2, 2))
def test_the_scan_bound_agrees_with_the_rule(policy, incoming, other, seconds):
    """``highest_preemptable_priority`` and ``preempts_anything`` describe exactly the candidates
    the rule accepts: none at all, or some up to the bound and none above it."""
    pre = W(incoming, NOW)
    cand = W(other, NOW + timedelta(seconds=seconds))
    ok = satisfies_preemption_policy(pre, cand, policy)
    if not preempts_anything(policy):
        assert not ok
        return
    bound = highest_preemptable_priority(policy, incoming)
    if bound is not None and other > bound:
        assert not ok
    if other < incoming:  # every policy that preempts anything takes a lower priority
        assert ok


@pytest.mark.parametrize(("policy", "preemptor", "candidate", "want"), [
    (NEVER, 10, 5, "withinClusterQueue is Never"),
    (LOWER_PRIORITY, 5, 10, "priority 10 is not lower than the preemptor's 5 (withinClusterQueue: LowerPriority)"),
    (LOWER_OR_NEWER_EQUAL_PRIORITY, 5, 5, "priority 5 is not lower, and not equal and newer than the "
                                          "preemptor's 5 (withinClusterQueue: LowerOrNewerEqualPriority)"),
])
def test_policy_rejection_says_which_setting_and_why(policy, preemptor, candidate, want):
    assert policy_rejection("withinClusterQueue", policy, preemptor, candidate) == want


@pytest.mark.parametrize(("borrow", "reclaim", "fair", "allowed", "while_borrowing"), [
    # Kueue's canPreemptWhileBorrowing (flavorassigner.go) and IsBorrowingWithinCohortAllowed
    (NEVER, NEVER, False, False, False),
    (NEVER, ANY, False, False, False),
    (NEVER, ANY, True, False, True),  # fair sharing preempts while borrowing through reclaimWithinCohort
    (NEVER, NEVER, True, False, False),
    (LOWER_PRIORITY, NEVER, False, True, True),
    ("", LOWER_PRIORITY, False, False, False),
    (None, LOWER_PRIORITY, True, False, True),
])
def test_preempting_while_borrowing(borrow, reclaim, fair, allowed, while_borrowing):
    p = Preemption(reclaim_within_cohort=reclaim, borrow_within_cohort_policy=borrow)
    assert borrowing_within_cohort_allowed(p) is allowed
    assert can_preempt_while_borrowing(p, fair) is while_borrowing


@pytest.mark.parametrize(("within", "reclaim", "want"), [
    (NEVER, NEVER, False),
    (LOWER_PRIORITY, ANY, False),
    (LOWER_OR_NEWER_EQUAL_PRIORITY, NEVER, True),
    (NEVER, LOWER_OR_NEWER_EQUAL_PRIORITY, True),
])
def test_compares_queue_order_timestamps(within, reclaim, want):
    assert compares_queue_order_timestamps(Preemption(reclaim_within_cohort=reclaim, within_cluster_queue=within)) is want
