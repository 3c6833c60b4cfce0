"""``quotactl lint`` on YuniKorn input through the CLI: exit codes, options, mixed input, output snapshots."""

import json

import jsonschema
import pytest

from quotactl.lint.context import LintOptions
from quotactl.lint.runner import lint_paths
from quotactl.report import lint_json, lint_text
from quotactl.report.console import View
from tests.helpers import ROOT, run_cli

BROKEN = "fixtures/yunikorn/broken/queues.yaml"
BROKEN_CM = "fixtures/yunikorn/broken/configmap.yaml"
CLEAN_DIR = "fixtures/yunikorn/clean"


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture
def broken_report(wired):
    return lint_paths([BROKEN], LintOptions())


def test_plain_snapshot(broken_report, snapshot):
    assert lint_text.render_plain(broken_report) == snapshot


def test_table_snapshot(broken_report, snapshot):
    assert lint_text.render_table(broken_report, view=View(width=180)) == snapshot


def test_json_snapshot(broken_report, snapshot):
    assert lint_json.render(broken_report) == snapshot


def test_configmap_json_snapshot(wired, snapshot):
    assert lint_json.render(lint_paths([BROKEN_CM], LintOptions())) == snapshot


def test_json_matches_the_lint_schema(broken_report):
    schema = json.loads((ROOT / "schemas" / "output" / "lint.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(lint_json.render(broken_report)))


def test_exit_codes(wired):
    assert run_cli("lint", CLEAN_DIR).exit_code == 0
    assert run_cli("lint", BROKEN).exit_code == 1
    assert run_cli("lint", BROKEN_CM).exit_code == 1
    warn_only = "tests/lint/rules/yunikorn/YK201/fail.yaml"
    assert run_cli("lint", warn_only).exit_code == 0
    assert run_cli("lint", warn_only, "--strict").exit_code == 1


def test_select_and_ignore(wired):
    doc = json.loads(run_cli("lint", BROKEN, "-o", "json", "--select", "YK2").stdout)
    assert doc["diagnostics"] and {d["code"][:3] for d in doc["diagnostics"]} == {"YK2"}
    doc = json.loads(run_cli("lint", BROKEN, "-o", "json", "--ignore", "YK1,YK0").stdout)
    assert not any(d["code"].startswith(("YK0", "YK1")) for d in doc["diagnostics"])


def test_all_problems_at_once_with_lines(wired):
    doc = json.loads(run_cli("lint", BROKEN, "-o", "json").stdout)
    errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
    assert len(errors) == 9 and len({d["line"] for d in errors}) == 9
    assert all(d["object"].startswith(("queue/", "partition/", "placementrule/")) for d in errors)


def test_kueue_and_yunikorn_files_are_each_linted_in_their_dialect(wired):
    result = run_cli("lint", "fixtures/broken/clusterqueues.yaml", BROKEN, "-o", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["dialect"] is None  # the lint schema: null when mixed
    codes = {d["code"][:2] for d in doc["diagnostics"] if d["severity"] == "error"}
    assert codes == {"KQ", "YK"}


def test_rules_listing_includes_yunikorn(wired):
    doc = json.loads(run_cli("rules", "-o", "json").stdout)
    codes = {r["code"] for r in doc["rules"]}
    assert {"YK002", "YK105", "YK201", "YK301"} <= codes
    one = run_cli("rules", "YK201", "-o", "plain").stdout
    assert "priority-offset-invalid" in one and "## How to fix" in one
