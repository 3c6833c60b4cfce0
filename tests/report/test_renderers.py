"""Every lint output format over the broken fixture: snapshots, schema validity, SARIF 2.1.0."""

import json
from pathlib import Path

import jsonschema
import pytest

from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths
from quotactl.report import lint_github, lint_json, lint_sarif, lint_text
from quotactl.report.console import View
from tests.helpers import ROOT, run_cli

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def broken_report(request):
    import os

    old = os.getcwd()
    os.chdir(ROOT)  # relative paths in the output, as a user would run it
    try:
        yield lint_paths(["fixtures/broken"], LintOptions())
    finally:
        os.chdir(old)


def test_json_snapshot(broken_report, snapshot):
    assert lint_json.render(broken_report) == snapshot


def test_plain_snapshot(broken_report, snapshot):
    assert lint_text.render_plain(broken_report) == snapshot


def test_table_snapshot(broken_report, snapshot):
    assert lint_text.render_table(broken_report, view=View(width=160)) == snapshot


def test_github_snapshot(broken_report, snapshot):
    assert lint_github.render(broken_report) == snapshot


def test_sarif_snapshot(broken_report, snapshot, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert lint_sarif.render(broken_report) == snapshot


def test_json_matches_its_schema(broken_report):
    schema = json.loads((ROOT / "schemas" / "output" / "lint.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(lint_json.render(broken_report)))


def test_sarif_validates_against_sarif_2_1_0(broken_report, monkeypatch):
    monkeypatch.chdir(ROOT)
    schema = json.loads((HERE / "sarif-schema-2.1.0.json").read_text())
    doc = json.loads(lint_sarif.render(broken_report))
    jsonschema.Draft4Validator(schema).validate(doc)
    run = doc["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.startswith("fixtures/broken/")  # relative to the repository root, as code scanning wants


def test_github_escapes_newlines_and_commas():
    from quotactl.diagnostics import Diagnostic, Severity
    from quotactl.lint.runner import LintReport

    d = Diagnostic("KQ001", Severity.ERROR, "a\nb, 100%", "dir,x/f:1.yaml", 3, 4)
    out = lint_github.render(LintReport([d], 1, 1, "kueue"))
    assert out == "::error file=dir%2Cx/f%3A1.yaml,line=3,col=4,title=KQ001::a%0Ab, 100%25\n"


def test_rules_json_matches_its_schema():
    schema = json.loads((ROOT / "schemas" / "output" / "rules.json").read_text())
    doc = json.loads(run_cli("rules", "-o", "json").stdout)
    jsonschema.Draft202012Validator(schema).validate(doc)
