import pytest

from tests.acceptance.accept import cases, check_lint

CASES = cases("kueue-lint")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_kueue_lint_case(case):
    why = check_lint(case)
    assert why is None, why


def test_suite_is_present():
    assert len(CASES) >= 30
