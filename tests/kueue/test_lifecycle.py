"""Kueue's rules after a quota reservation (kueue/lifecycle.py) and quotactl's annotations that
say when checks answer (simulate/lifecycle.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import quotactl.kueue.lifecycle as life
from quotactl.kueue.lifecycle import PENDING, READY, REJECTED, RETRY
from quotactl.model.kueue import AdmissionCheckRule
from quotactl.simulate.lifecycle import Transition, attempt_for, parse_attempts


def _rule(name, *flavors):
    return AdmissionCheckRule(name, tuple(flavors), ())


def test_a_rule_applies_without_on_flavors_or_on_a_flavor_of_the_assignment():
    rules = [_rule("all"), _rule("f1-only", "f1"), _rule("f2-or-f3", "f2", "f3")]
    assert life.applicable_checks(rules, {"f1"}) == ("all", "f1-only")
    assert life.applicable_checks(rules, {"f3"}) == ("all", "f2-or-f3")
    assert life.applicable_checks([_rule("f1-only", "f1")], {"f2"}) == ()


@pytest.mark.parametrize(("states", "verdict"), [
    ([READY, READY], READY), ([READY, PENDING], PENDING), ([RETRY, READY], RETRY),
    ([RETRY, REJECTED], REJECTED), ([], READY)])
def test_verdict_rejected_before_retry_before_waiting(states, verdict):
    assert life.check_verdict(states) == verdict


def test_backoff_doubles_up_to_the_maximum():
    assert [life.requeue_backoff(n, 1, 3600) for n in (1, 2, 3, 4)] == [1, 2, 4, 8]
    assert life.requeue_backoff(30, 60, 3600) == 3600


@given(st.integers(min_value=0, max_value=10**30), st.integers(min_value=0, max_value=10**30),
       st.integers(min_value=0, max_value=10**30))
def test_backoff_never_overflows_and_never_exceeds_the_maximum(count, base, cap):
    got = life.requeue_backoff(count, base, cap)
    assert 0 <= got <= cap


def test_deactivation_only_past_the_limit():
    assert not life.deactivates(2, 2) and life.deactivates(3, 2) and not life.deactivates(10**9, None)


def test_attempts_parse_and_the_last_repeats():
    attempts = parse_attempts("Retry@5s+2s; Ready@0s Rejected@10s")
    assert attempts[0] == (Transition(RETRY, 5_000_000, 2_000_000),)
    assert attempt_for(attempts, 7) == (Transition(READY, 0, None), Transition(REJECTED, 10_000_000, None))
    assert parse_attempts("Pending") == ((Transition(PENDING, 0, None),),)
    assert attempt_for((), 1) == (Transition(READY, 0, None),)


@pytest.mark.parametrize("text", ["", "Ready", "Ready@", "Ready@x", "Soon@1s", "Ready@1s+2s", "Ready@1s;;"])
def test_malformed_attempts_are_refused(text):
    with pytest.raises(ValueError):
        parse_attempts(text)
