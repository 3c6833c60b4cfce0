"""The one rule runner: selection and the guard against rule bugs, the same for both dialects."""

from __future__ import annotations

import pytest

from quotactl.diagnostics import Severity
from quotactl.lint.apply import apply_rules
from quotactl.lint.context import LintOptions
from quotactl.lint.kueue import KueueSubjects
from quotactl.lint.rule import Finding, Rule, RuleDoc, checks_of, registry
from quotactl.lint.yunikorn import YuniKornSubjects
from quotactl.load.objects import load
from quotactl.load.yunikorn import load_inputs
from tests.helpers import FIXTURES

DOC = RuleDoc("what", "why", "fix")


def _broken(*args):
    raise RuntimeError("boom")


def _kueue_subjects() -> KueueSubjects:
    from quotactl.lint.context import LintContext
    from quotactl.model.features import FeatureGates
    from quotactl.model.kueue import build_cluster

    cluster = build_cluster(load([str(FIXTURES / "cluster")]).objects)
    return KueueSubjects(cluster, LintContext(cluster, LintOptions(), FeatureGates({})))


def _yunikorn_subjects() -> YuniKornSubjects:
    from quotactl.lint.rules.yunikorn.base import YKContext

    loaded = load([str(FIXTURES / "yunikorn" / "clean" / "queues.yaml")])
    inp = load_inputs([o for o in loaded.objects if o.kind in ("SchedulerConfig", "ConfigMap")])[0]
    return YuniKornSubjects(inp, YKContext(inp))


@pytest.fixture(autouse=True)
def _report_rule_errors(monkeypatch):
    monkeypatch.delenv("QUOTACTL_RAISE_RULE_ERRORS", raising=False)


@pytest.mark.parametrize("subjects, scope, kinds", [
    (_kueue_subjects, "cluster", ()),
    (_kueue_subjects, "object", ("ClusterQueue",)),
    (_yunikorn_subjects, "config", ("SchedulerConfig",)),
])
def test_a_crashing_rule_becomes_ql999_in_either_dialect(subjects, scope, kinds):
    r = Rule("XX999", "broken", Severity.ERROR, "s", DOC, "test", "webhook", kinds, scope, None, _broken)
    diags = apply_rules([r], subjects(), LintOptions())
    assert diags
    assert {d.code for d in diags} == {"QL999"}
    assert all("internal error in rule XX999 (RuntimeError: boom)" in d.message for d in diags)
    assert all(d.line >= 1 and d.column >= 1 for d in diags)


def test_unselected_rules_do_not_run():
    seen = []
    r = Rule("XX998", "counted", Severity.ERROR, "s", DOC, "test", "webhook", (), "cluster", None,
             lambda ctx: seen.append(ctx) or [])
    apply_rules([r], _kueue_subjects(), LintOptions(ignore=("XX9",)))
    assert seen == []
    apply_rules([r], _kueue_subjects(), LintOptions(select=("XX998",)))
    assert len(seen) == 1


def test_kueue_findings_are_positioned_at_their_object():
    subjects = _kueue_subjects()
    r = Rule("XX997", "every-cq", Severity.WARNING, "s", DOC, "test", "webhook", ("ClusterQueue",), "object", None,
             lambda cq, ctx: [Finding(("spec",), "here")])
    diags = apply_rules([r], subjects, None)
    assert len(diags) == len(subjects.cluster.cluster_queues)
    assert all(d.object.startswith("ClusterQueue/") and d.field == "spec" and d.line > 1 for d in diags)


def test_one_registry_holds_both_dialects():
    dialects = {r.dialect for r in registry().values()}
    assert {"kueue", "yunikorn", "input"} <= dialects
    assert all(r.scope == "config" for r in checks_of("yunikorn"))
    assert all(r.scope in ("object", "cluster") for r in checks_of("kueue"))
