"""kueue-preempt and kueue-diff-preempt through the real CLI, plus the report's own guarantees on
every case: it validates against schemas/output/preempt.json, the victims free enough for the
workload, and a case without victims says which rule stopped it."""

import json

import jsonschema
import pytest

from tests.acceptance.accept import cases, spec
from tests.acceptance.accept_preempt import check_preempt, run_preempt
from tests.helpers import ROOT

PREEMPT = cases("kueue-preempt")
DIFF = cases("kueue-diff-preempt")
SCHEMA = json.loads((ROOT / "schemas" / "output" / "preempt.json").read_text())

# Kueue's own unit test hands GetTargets a pre-computed flavor assignment (memory -> beta) that
# Kueue's flavor assigner would not choose on this state: both flavors need preemption, both are
# "preempt" mode at borrowing level 0, and isPreferred keeps the first one scanned (alpha), whose
# only candidate is default/low.  The case's notes say so ("Kueue's own flavor assigner on this
# state.yaml gives ... memory->alpha:Preempt and would then preempt ['default/low']").  quotactl
# answers what Kueue's scheduler does; the test's assignment is reproduced with --flavor.
TEST_SUPPLIED_ASSIGNMENT = {
    "classic--only-preempt-workloads-using-the-chosen-flavor": ("memory=beta",),
}


def _params(suite):
    out = []
    for c in suite:
        marks = []
        if c.name in TEST_SUPPLIED_ASSIGNMENT:
            marks.append(pytest.mark.xfail(strict=True, reason="expectation holds for the unit test's hand-made "
                                                                "assignment, not Kueue's own (see --flavor test)"))
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


@pytest.mark.parametrize("case", _params(PREEMPT))
def test_kueue_preempt_case(case):
    why = check_preempt(case)
    assert why is None, why


@pytest.mark.parametrize("case", _params(DIFF))
def test_kueue_diff_preempt_case(case):
    why = check_preempt(case)
    assert why is None, why


@pytest.mark.parametrize("name", sorted(TEST_SUPPLIED_ASSIGNMENT))
def test_unit_test_assignment_reproduced_with_flavor_pins(name):
    case = next(c for c in PREEMPT if c.name == name)
    flags = [a for pin in TEST_SUPPLIED_ASSIGNMENT[name] for a in ("--flavor", pin)]
    why = check_preempt(case, *flags)
    assert why is None, why
    # and without the pins, what Kueue's own assigner leads to (the case's notes)
    _, got, _ = run_preempt(case)
    assert {v["workload"]: v["reason"] for v in got["victims"]} == {"default/low": "InClusterQueue"}
    assert got["assignment"]["main"]["resources"]["memory"]["flavor"] == "alpha"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in PREEMPT + DIFF])
def test_report_is_valid_and_explains_itself(case):
    code, got, err = run_preempt(case)
    assert code == 0, err
    jsonschema.Draft202012Validator(SCHEMA).validate(got)
    assert got["version"] == 1 and got["workload"] == spec(case)["workload"]
    if got["victims"]:
        assert got["blocking"] is None
        assert got["message"].endswith(f"Pending the preemption of {len(got['victims'])} workload(s)")
        winning = [a for a in got["attempts"] if a["fits"]]
        assert len(winning) == 1
        kept = {s["workload"] for s in winning[0]["steps"] if s["action"] == "kept"}
        assert kept == {v["workload"] for v in got["victims"]}
    else:
        assert got["blocking"] and got["blocking"]["rule"] and got["blocking"]["message"]


def test_suites_are_present():
    assert len(PREEMPT) >= 40 and len(DIFF) >= 50
