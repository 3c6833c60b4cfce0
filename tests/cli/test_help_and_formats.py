"""``--help`` readable at 80 columns, flags that take no value, and the ``-o`` formats kubectl users
expect (``wide``, ``yaml``), end to end through a real subprocess."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from ruamel.yaml import YAML

from quotactl.cli.app import COMMANDS
from tests.helpers import ROOT, run_cli, run_subprocess

CLUSTER = ["-f", "fixtures/cluster", "-f", "tests/kueue/data/explain-extra.yaml"]
YK = ["-f", "fixtures/yunikorn/clean/queues.yaml", "-f", "fixtures/yunikorn/clean/state.yaml"]
DIFF = ["--base", "fixtures/ci-diff/before", "--head", "fixtures/ci-diff/after", "-f", "fixtures/ci-diff/workloads.yaml"]
TRACE = ["-f", "fixtures/simulate/what-if/after.yaml", "-f", "fixtures/simulate/what-if/trace.yaml"]

# every command line with a JSON document (each report of each command)
DOCUMENTS = {
    "lint": ["lint", "fixtures/broken"],
    "rules": ["rules"],
    "rule": ["rules", "KQ502"],
    "explain": ["explain", "team-b/spark-report", *CLUSTER],
    "explain-all": ["explain", "--all", *CLUSTER],
    "explain-all-eta": ["explain", "--all", "--eta", "--default-runtime", "1h", *CLUSTER],
    "explain-jobs": ["explain", "-f", "fixtures/jobs/snapshot.yaml", "-f", "fixtures/jobs/my-job.yaml"],
    "yunikorn-explain": ["explain", "analytics/report-gen-1", *YK],
    "preempt": ["preempt", "ml/eval-llm", *CLUSTER],
    "yunikorn-preempt": ["preempt", "analytics/report-gen-1", *YK],
    "schedule": ["schedule", *CLUSTER],
    "shares": ["shares", *CLUSTER],
    "diff": ["diff", *DIFF],
    "simulate": ["simulate", *TRACE],
    "queues": ["queues", *YK],
    "workload": ["workload", "-f", "fixtures/jobs/my-job.yaml"],
}


def _help(command: str, columns: int) -> str:
    r = run_subprocess(command, "--help", env={"COLUMNS": str(columns)})
    assert r.returncode == 0, r.stderr
    return r.stdout


# --- --help -----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_fits_80_columns_and_names_no_boolean_type(command, snapshot):
    text = _help(command, 80)
    assert [line for line in text.splitlines() if len(line) > 80] == []
    assert "BOOLEAN" not in text and "<bool>" not in text and "<int range>" not in text
    # no word split at a hyphen: every option named on a line is an option of the command
    assert not re.search(r"--[\w-]*-$", text, re.MULTILINE)
    assert text == snapshot


def test_top_level_help_lists_every_command_on_one_line_each(snapshot):
    r = run_subprocess("--help", env={"COLUMNS": "80"})
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and max(len(line) for line in lines) <= 80
    listed = lines[lines.index("Commands:") + 1:]
    assert [line.split()[0] for line in listed] == list(COMMANDS) and not any(line.endswith("...") for line in listed)
    assert r.stdout == snapshot


@pytest.mark.parametrize("command", ["lint", "explain", "simulate"])
def test_help_at_200_columns_is_the_same_page(command):
    assert _help(command, 200) == _help(command, 80)


def test_brackets_in_help_are_text_not_markup():
    text = _help("lint", 80)
    assert "([tool.quotactl] in pyproject.toml" in " ".join(text.split())
    assert "[default: table]" not in text  # -o's default is part of its own help


def test_example_commands_keep_their_lines():
    text = _help("explain", 80)
    assert "    kubectl get resourceflavors,clusterqueues,cohorts,localqueues,workloads \\\n" in text
    assert "        -A -o yaml | quotactl explain ns/name -f -\n" in text
    # prose is reflowed: the docstring's own line breaks do not show
    assert "who holds the\n  quota" in text or "who holds the quota" in text


def test_live_cluster_options_are_their_own_section():
    text = _help("schedule", 80)
    options, cluster = text.split("\nOptions:\n")[1].split("\nReading a live cluster:\n")
    assert "--from-cluster" in cluster and "--from-cluster" not in options
    assert "--fair-sharing / --no-fair-sharing" in options


# --- flags take no value ----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["lint", "--strict", "true", "fixtures/cluster"],
    ["lint", "fixtures/cluster", "--no-strict", "false"],
    ["explain", "--all", "true", *CLUSTER],
    ["schedule", "--wide", "yes", *CLUSTER],
    ["simulate", "--no-plot", "1", *TRACE],
    ["explain", "--all", *CLUSTER, "-A", "on"],
])
def test_a_flag_given_a_value_is_a_usage_error(argv):
    r = run_subprocess(*argv)
    flag = argv[argv.index(next(a for a, b in zip(argv, argv[1:], strict=False) if b.lower() in ("true", "false", "yes", "1", "on")))]
    assert r.returncode == 2 and r.stdout == ""
    assert f"Error: {flag} takes no value" in r.stderr
    assert max(len(line) for line in r.stderr.splitlines()) <= 80


def test_a_boolean_word_elsewhere_is_still_an_argument():
    # only the word right after a flag is refused: a value of an option is read as given
    r = run_subprocess("lint", "fixtures/cluster", "--select", "KQ1", "--strict")
    assert r.returncode in (0, 1), r.stderr
    r = run_subprocess("lint", "--strict", "--", "true")
    assert "takes no value" not in r.stderr


def test_the_flag_check_says_what_to_write():
    r = run_subprocess("lint", "--strict", "true", "fixtures/cluster")
    assert "Error: --strict takes no value ('true'): give --strict or --no-strict\n" in r.stderr
    r = run_subprocess("explain", "--all", "yes", *CLUSTER)
    assert "Error: --all takes no value ('yes'): give --all alone\n" in r.stderr


# --- -o yaml, -o wide, -o bogus ---------------------------------------------------------------

@pytest.mark.parametrize("report", sorted(DOCUMENTS))
def test_yaml_is_the_json_document(report):
    argv = DOCUMENTS[report]
    as_json, as_yaml = run_subprocess(*argv, "-o", "json"), run_subprocess(*argv, "-o", "yaml")
    assert as_json.returncode == as_yaml.returncode and as_json.returncode in (0, 1), as_yaml.stderr
    document = json.loads(as_json.stdout)
    loaded = YAML(typ="safe", pure=True).load(as_yaml.stdout)
    assert loaded == document
    assert list(loaded) == list(document)  # the keys in the JSON document's order


@pytest.mark.parametrize("report, schema", [("schedule", "schedule"), ("yunikorn-preempt", "yunikorn-preempt"),
                                            ("simulate", "simulate")])
def test_the_json_schemas_describe_the_yaml_documents(report, schema):
    r = run_subprocess(*DOCUMENTS[report], "-o", "yaml")
    document = YAML(typ="safe", pure=True).load(r.stdout)
    spec = json.loads((ROOT / "schemas" / "output" / f"{schema}.json").read_text())
    jsonschema.Draft202012Validator(spec).validate(document)


@pytest.mark.parametrize("argv", [["explain", "--all", *CLUSTER], ["shares", *CLUSTER], ["schedule", *CLUSTER],
                                  ["queues", *YK], ["lint", "fixtures/broken"], ["rules"],
                                  ["workload", "-f", "fixtures/jobs/my-job.yaml"]])
def test_wide_is_the_table_with_every_column(argv, monkeypatch):
    # on a terminal: -o wide draws what --wide draws, with more than the 80-column table
    monkeypatch.setattr("quotactl.cli.common.stdout_is_tty", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    wide = run_cli(*argv, "-o", "wide")
    assert wide.exit_code in (0, 1)
    assert wide.stdout == run_cli(*argv, "-o", "table", "--wide").stdout
    # piped, -o wide is the plain output (which has every column)
    monkeypatch.setattr("quotactl.cli.common.stdout_is_tty", lambda: False)
    assert run_cli(*argv, "-o", "wide").stdout == run_cli(*argv, "-o", "plain").stdout


def test_wide_shows_the_columns_the_table_leaves_out(monkeypatch):
    monkeypatch.setattr("quotactl.cli.common.stdout_is_tty", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    argv = ["workload", "-f", "fixtures/jobs/my-job.yaml"]
    assert "OWNER" in run_cli(*argv, "-o", "wide").stdout and "OWNER" not in run_cli(*argv, "-o", "table").stdout


@pytest.mark.parametrize("argv, formats", [
    (["explain", "--all", *CLUSTER], ["table", "plain", "wide", "json", "yaml"]),
    (["simulate", *TRACE], ["table", "plain", "wide", "json", "yaml"]),
    (["lint", "fixtures/cluster"], ["table", "plain", "wide", "json", "yaml", "sarif", "github"]),
    (["queues", *YK], ["table", "tree", "plain", "wide", "json", "yaml"]),
    (["rules"], ["table", "plain", "wide", "json", "yaml", "markdown"]),
    (["workload", "-f", "fixtures/jobs/my-job.yaml"], ["table", "plain", "wide", "json", "yaml"]),
])
def test_an_unknown_format_is_a_usage_error_listing_the_valid_ones(argv, formats):
    r = run_subprocess(*argv, "-o", "bogus")
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr == f"quotactl: error: -o 'bogus': use {', '.join(formats)}\n"  # one line (tests/cli/test_output_formats)
