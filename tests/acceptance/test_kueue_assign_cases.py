import pytest

from tests.acceptance.accept import cases
from tests.acceptance.accept_assign import check_assign, check_messages

ASSIGN = cases("kueue-assign")
DIFF = cases("kueue-diff-assign")


@pytest.mark.parametrize("case", ASSIGN, ids=[c.name for c in ASSIGN])
def test_kueue_assign_case(case):
    why = check_assign(case)
    assert why is None, why


@pytest.mark.parametrize("case", DIFF, ids=[c.name for c in DIFF])
def test_kueue_diff_assign_case(case):
    why = check_assign(case)
    assert why is None, why


@pytest.mark.parametrize("case", ASSIGN + DIFF, ids=[c.name for c in ASSIGN + DIFF])
def test_kueue_assign_messages(case):
    why = check_messages(case)
    assert why is None, why


def test_suites_are_present():
    assert len(ASSIGN) >= 25 and len(DIFF) >= 40
