"""Acceptance: every schedule case (one-cycle and fixpoint) through the real CLI."""

import pytest

from tests.acceptance.accept import cases
from tests.acceptance.accept_schedule import check_schedule

SCHEDULE = cases("kueue-schedule")
DIFF = cases("kueue-diff-schedule")
FIX = cases("kueue-fix-schedule")

def _run(case):
    why = check_schedule(case)
    assert why is None, why


@pytest.mark.parametrize("case", SCHEDULE, ids=[c.name for c in SCHEDULE])
def test_kueue_schedule_case(case):
    _run(case)


@pytest.mark.parametrize("case", DIFF, ids=[c.name for c in DIFF])
def test_kueue_diff_schedule_case(case):
    _run(case)


@pytest.mark.parametrize("case", FIX, ids=[c.name for c in FIX])
def test_kueue_fix_schedule_case(case):
    _run(case)


def test_suites_are_present():
    assert len(SCHEDULE) >= 40 and len(DIFF) >= 20 and len(FIX) >= 30
