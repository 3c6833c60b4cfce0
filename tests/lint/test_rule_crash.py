"""A rule that crashes is a bug in quotactl, not a finding in the user's file: the other findings
are still reported, the crash goes to stderr naming the rule and the place, and the exit status
is the internal-error one (3), never 0/1 as if the file were at fault. Found by the fuzzer, where
a crash used to read as an ordinary QL999 error with exit 1."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from quotactl.cli.app import build_app
from quotactl.cli.common import EXIT_INTERNAL
from quotactl.lint import rule as rule_module
from quotactl.lint.rule import registry

CQ = """apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: missing
      resources:
      - name: cpu
        nominalQuota: 1
"""


def _crash(*args):
    raise RuntimeError("boom")


@pytest.fixture
def crashing_rule(monkeypatch):
    monkeypatch.delenv("QUOTACTL_RAISE_RULE_ERRORS", raising=False)
    victim = next(r for r in registry().values() if r.dialect == "kueue" and "ClusterQueue" in r.kinds
                  and r.check is not None and r.scope == "object")
    monkeypatch.setitem(rule_module._REGISTRY, victim.code, dataclasses.replace(victim, check=_crash))
    return victim.code


def test_a_crashing_rule_is_an_internal_error_not_a_finding(tmp_path, crashing_rule):
    (tmp_path / "cq.yaml").write_text(CQ)
    result = CliRunner().invoke(build_app(("lint",)), ["lint", str(tmp_path / "cq.yaml"), "-o", "json"])
    assert result.exit_code == EXIT_INTERNAL
    doc = json.loads(result.stdout)
    assert "QL999" not in {d["code"] for d in doc["diagnostics"]}
    assert doc["diagnostics"], "the other rules' findings are still reported"
    assert f"internal error in rule {crashing_rule} (RuntimeError: boom)" in result.stderr
    assert "cq.yaml:" in result.stderr
