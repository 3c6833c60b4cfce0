"""Renderers over a report with suppressed findings: plain (counted; listed with
--show-suppressed), JSON (summary.suppressed, the "suppressed" array), SARIF (suppressions)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from quotactl import __version__
from quotactl.lint.context import LintOptions
from quotactl.lint.globs import glob_set
from quotactl.lint.runner import lint_paths
from quotactl.report import lint_github, lint_json, lint_sarif, lint_text
from quotactl.report.console import View

ROOT = Path(__file__).resolve().parents[2]
INPUT = """\
# quotactl: disable=KQ500 the flavors are in another repository
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: shared
  annotations: {quotactl.io/ignore: KQ211}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 1}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: team
spec:  # quotactl: disable=KQ506
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 1}
"""


@pytest.fixture
def report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("queues.yaml").write_text(INPUT)
    per_file = tuple((g, ("KQ2",)) for g in glob_set(["queues.yaml"], tmp_path).globs)
    full = lint_paths(["queues.yaml"], LintOptions(per_file_ignores=per_file, config_file=".quotactl.yaml"))
    return full


def test_plain_counts_suppressed(report, snapshot):
    assert lint_text.render_plain(report) == snapshot


def test_plain_lists_suppressed_when_asked(report, snapshot):
    report.show_suppressed = True
    assert lint_text.render_plain(report) == snapshot


def test_json_with_suppressed(report, snapshot):
    report.show_suppressed = True
    out = lint_json.render(report)
    schema = json.loads((ROOT / "schemas" / "output" / "lint.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(out))
    assert out == snapshot


def test_sarif_with_suppressed(report, snapshot):
    out = lint_sarif.render(report)
    schema = json.loads((ROOT / "tests" / "report" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft7Validator(schema).validate(json.loads(out))
    kinds = sorted(s["kind"] for r in json.loads(out)["runs"][0]["results"] for s in r.get("suppressions", []))
    assert kinds == ["external", "inSource", "inSource"]
    assert out.replace(__version__, "VERSION") == snapshot


def test_github_leaves_suppressed_out(report):
    report.show_suppressed = True
    assert [line.split(",title=")[1].split("::")[0] for line in lint_github.render(report).splitlines()] == ["QL101"]


def test_table_marks_suppressed_rows_when_asked(report):
    assert "suppressed:" not in lint_text.render_table(report, View(width=200))
    report.show_suppressed = True
    table = lint_text.render_table(report, View(width=200))
    assert "(suppressed: per-file-ignores 'queues.yaml' in .quotactl.yaml)" in " ".join(table.split())
    assert table.rstrip().endswith("(3 suppressed)")
