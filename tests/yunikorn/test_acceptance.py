"""Every ``yunikorn-preempt`` and ``yunikorn-diff-preempt`` case through ``quotactl preempt``
through the real CLI, scored with
the acceptance scorer's ``preempt`` check; plus the refusal message each case records."""

import json

import pytest

from tests.acceptance.accept_preempt import check_preempt
from tests.helpers import CASES
from tests.yunikorn.harness import cli_json

PREEMPT = sorted(p.parent for p in (CASES / "yunikorn-preempt").glob("*/case.json"))
DIFF = sorted(p.parent for p in (CASES / "yunikorn-diff-preempt").glob("*/case.json"))


def test_suites_are_present():
    assert len(PREEMPT) >= 15 and len(DIFF) >= 30


@pytest.mark.parametrize("case", PREEMPT, ids=[c.name for c in PREEMPT])
def test_yunikorn_preempt_case(case):
    assert check_preempt(case) is None


@pytest.mark.parametrize("case", DIFF, ids=[c.name for c in DIFF])
def test_yunikorn_diff_preempt_case(case):
    assert check_preempt(case) is None


def _args(case):
    spec = json.loads((case / "case.json").read_text())
    args = ["preempt", spec["workload"]]
    for n in ("queues.yaml", "state.yaml"):
        args += ["-f", str(case / n)]
    if (spec.get("options") or {}).get("direct"):
        args.append("--direct")
    return spec, args + ["--output", "json"]


@pytest.mark.parametrize("case", PREEMPT + DIFF, ids=[c.name for c in PREEMPT + DIFF])
def test_refusal_and_log(case):
    """Beyond the scorer: the refusal text YuniKorn logged, and (diff cases) its allocation log."""
    spec, args = _args(case)
    doc = cli_json(args)
    exp = spec["expect"]
    if "refusal" in exp:
        assert doc["refusal"] == exp["refusal"]
    log = (spec.get("context") or {}).get("allocationLog")
    if log is not None and not exp.get("placed"):
        assert doc["allocationLog"] == log
    if doc["placed"] and doc["victims"]:
        assert doc["representativeMode"] == "Preempt"
    fits_after = (spec.get("context") or {}).get("askFitsReservedNodeAfterVictimsLeave")
    if fits_after is not None:
        assert doc["preemption"]["fitsAfterVictims"] is fits_after
