"""``quotactl lint`` end to end (a real subprocess, run in a temporary project): the config file
and its precedence, unknown codes, --exclude, --min-severity, suppressed findings in every format."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import jsonschema
import pytest

from tests.helpers import ROOT

# KQ211 (warning) at line 5, KQ500 (info) at line 9.
CQ = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 1}
"""
# Not YAML at all (an unclosed flow sequence): IN001, exit 2, unless excluded. (A Helm template would be
# recognised and skipped with a note: tests/load/test_nonmanifest.py.)
BROKEN_YAML = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n"
LINT_SCHEMA = json.loads((ROOT / "schemas" / "output" / "lint.json").read_text())
SARIF_SCHEMA = json.loads((ROOT / "tests" / "report" / "sarif-schema-2.1.0.json").read_text())


def quotactl(cwd, *args: str):
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("QUOTACTL_KUEUE_VERSION", None)
    return subprocess.run([sys.executable, "-m", "quotactl", "lint", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


@pytest.fixture
def project(tmp_path):
    """A repository with manifests in deploy/ and a broken YAML file under charts/; the tests add a config file."""
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "cq.yaml").write_text(CQ)
    (tmp_path / "charts" / "app" / "templates").mkdir(parents=True)
    (tmp_path / "charts" / "app" / "templates" / "cm.yaml").write_text(BROKEN_YAML)
    return tmp_path


def codes(result) -> list[str]:
    return [d["code"] for d in json.loads(result.stdout)["diagnostics"]]


@pytest.mark.parametrize("option", ["--ignore", "--select"])
def test_unknown_code_on_the_command_line_is_a_usage_error(project, option):
    result = quotactl(project, "deploy", option, "KQ211,KQ5066")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"quotactl: error: {option}: unknown rule code 'KQ5066'; did you mean KQ506, KQ606, KQ520?\n"


def test_code_prefixes_are_accepted(project):
    assert quotactl(project, "deploy", "--ignore", "kq2,QL", "-o", "json").returncode == 0


def test_config_file_sets_the_defaults_and_the_command_line_wins(project):
    (project / "pyproject.toml").write_text('[tool.quotactl]\noutput = "json"\nstrict = true\nignore = ["KQ500"]\n'
                                            'exclude = ["charts/*/templates"]\n')
    result = quotactl(project / "deploy", ".")  # found from a subdirectory
    assert result.returncode == 1  # strict: the KQ211 warning fails the run
    assert codes(result) == ["KQ211"]
    result = quotactl(project / "deploy", ".", "-o", "plain", "--no-strict")
    assert result.returncode == 0 and result.stdout.startswith("cq.yaml:5:1: warning KQ211")
    assert codes(quotactl(project / "deploy", ".", "--select", "KQ5")) == ["KQ500"]  # --select replaces ignore
    assert quotactl(project, ".").returncode == 1  # the chart is excluded by the config's glob


def test_isolated_and_config_option(project):
    (project / ".quotactl.yaml").write_text("ignore: [KQ2]\noutput: json\n")
    other = project / "strict.yaml"
    other.write_text("strict: true\n")
    assert codes(quotactl(project, "deploy")) == ["KQ500"]
    result = quotactl(project, "deploy", "--isolated", "-o", "json")
    assert codes(result) == ["KQ211", "KQ500"] and result.returncode == 0
    assert quotactl(project, "deploy", "--config", "strict.yaml").returncode == 1
    both = quotactl(project, "deploy", "--config", "strict.yaml", "--isolated")
    assert both.returncode == 2 and "either --config or --isolated" in both.stderr
    missing = quotactl(project, "deploy", "--config", "nope.toml")
    assert missing.returncode == 2
    assert missing.stderr == "quotactl: error: nope.toml: cannot read the config file: No such file or directory\n"


def test_a_mistake_in_the_config_file_is_one_line_exit_2(project):
    (project / ".quotactl.yaml").write_text("select: [KQ2]\nignore: [KQ2111]\n")
    result = quotactl(project / "deploy", ".")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == ("quotactl: error: ../.quotactl.yaml:2: ignore: unknown rule code 'KQ2111'; "
                             "did you mean KQ211, KQ111, YK211?\n")
    (project / ".quotactl.yaml").write_text("min_severity: info\n")
    result = quotactl(project, "deploy")
    assert result.stderr == ("quotactl: error: .quotactl.yaml:1: unknown key 'min_severity'; "
                             "did you mean 'min-severity'?\n")


def test_kueue_version_from_the_config(project):
    (project / "deploy" / "old.yaml").write_text(CQ.replace("v1beta2", "v1beta1").replace("name: cq", "name: old"))
    assert "KQ013" in codes(quotactl(project, "deploy", "-o", "json"))  # v0.20 no longer serves v1beta1
    (project / ".quotactl.yaml").write_text("kueue-version: v0.19\n")
    assert "KQ013" not in codes(quotactl(project, "deploy", "-o", "json"))
    assert "KQ013" in codes(quotactl(project, "deploy", "-o", "json", "--kueue-version", "v0.20"))


def test_exclude_applies_to_directory_walks_and_with_force_exclude_to_named_files(project):
    assert quotactl(project, ".").returncode == 2  # the broken file does not parse
    assert quotactl(project, ".", "--exclude", "templates").returncode == 0
    assert quotactl(project, ".", "--exclude", "charts/*/templates").returncode == 0
    named = "charts/app/templates/cm.yaml"
    assert quotactl(project, named, "--exclude", "templates").returncode == 2  # named: checked anyway
    result = quotactl(project, named, "deploy", "--exclude", "templates", "--force-exclude", "-o", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["summary"]["files"] == 1


def test_min_severity_keeps_info_notes_out_of_github_annotations(project):
    result = quotactl(project, "deploy", "-o", "github")
    assert "::notice " in result.stdout and "::warning " in result.stdout
    result = quotactl(project, "deploy", "-o", "github", "--min-severity", "warning")
    assert "::notice " not in result.stdout and "::warning " in result.stdout
    (project / ".quotactl.yaml").write_text("min-severity: error\n")
    assert quotactl(project, "deploy", "-o", "github").stdout == ""


SUPPRESSED = CQ.replace("spec:\n", "spec:  # quotactl: disable=KQ211 the platform team owns it\n")


def test_suppressed_findings_are_counted_and_can_be_shown(project):
    (project / "deploy" / "cq.yaml").write_text(SUPPRESSED)
    result = quotactl(project, "deploy")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "1 file, 1 object checked: 0 errors, 0 warnings, 1 info (1 suppressed)"
    assert "KQ211" not in result.stdout
    shown = quotactl(project, "deploy", "--show-suppressed")
    assert "(suppressed: the platform team owns it)" in shown.stdout


def test_json_summary_counts_suppressed_and_validates(project):
    (project / "deploy" / "cq.yaml").write_text(SUPPRESSED)
    doc = json.loads(quotactl(project, "deploy", "-o", "json").stdout)
    jsonschema.Draft202012Validator(LINT_SCHEMA).validate(doc)
    assert doc["summary"]["suppressed"] == 1 and "suppressed" not in doc
    assert [d["code"] for d in doc["diagnostics"]] == ["KQ500"]
    doc = json.loads(quotactl(project, "deploy", "-o", "json", "--show-suppressed").stdout)
    jsonschema.Draft202012Validator(LINT_SCHEMA).validate(doc)
    (entry,) = doc["suppressed"]
    assert entry["code"] == "KQ211" and entry["line"] == 5
    assert entry["suppression"] == {"kind": "inSource", "justification": "the platform team owns it"}


def test_json_schema_rejects_a_malformed_suppression():
    doc = {"version": 1, "diagnostics": [], "summary": {"files": 1, "objects": 1, "errors": 0, "warnings": 0,
                                                          "suppressed": -1}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(LINT_SCHEMA).validate(doc)
    doc["summary"]["suppressed"] = 0
    doc["suppressed"] = [{"code": "KQ211", "severity": "warning", "file": "a", "line": 1, "column": 1,
                          "object": None, "field": None, "message": "m"}]
    with pytest.raises(jsonschema.ValidationError):  # no "suppression"
        jsonschema.Draft202012Validator(LINT_SCHEMA).validate(doc)


def test_sarif_marks_suppressed_results(project):
    (project / "deploy" / "cq.yaml").write_text(SUPPRESSED)
    (project / "pyproject.toml").write_text('[tool.quotactl.per-file-ignores]\n"deploy/*.yaml" = ["KQ500"]\n')
    result = quotactl(project, "deploy", "-o", "sarif")
    assert result.returncode == 0
    doc = json.loads(result.stdout)
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(doc)
    by_rule = {r["ruleId"]: r for r in doc["runs"][0]["results"]}
    assert set(by_rule) == {"KQ211", "KQ500"}
    (in_source,) = by_rule["KQ211"]["suppressions"]
    assert in_source["kind"] == "inSource" and in_source["justification"] == "the platform team owns it"
    assert in_source["location"]["physicalLocation"]["region"] == {"startLine": 5, "startColumn": 8}
    (external,) = by_rule["KQ500"]["suppressions"]
    assert external == {"kind": "external", "status": "accepted",
                        "justification": "per-file-ignores 'deploy/*.yaml' in pyproject.toml"}
    assert {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]} == {"KQ211", "KQ500"}


def test_github_format_never_annotates_suppressed_findings(project):
    (project / "deploy" / "cq.yaml").write_text(SUPPRESSED)
    out = quotactl(project, "deploy", "-o", "github", "--show-suppressed").stdout
    assert "KQ211" not in out and "title=KQ500" in out
