"""``quotactl queues``: the queue tree (table / tree / plain / json), snapshot-tested over the fixtures."""

import json
import os

import jsonschema
import pytest

from quotactl.cli.queues import build_reports
from quotactl.load.objects import load
from quotactl.load.yunikorn import load_inputs
from quotactl.report import queues_json, queues_text
from quotactl.report.console import View
from tests.helpers import CASES, FIXTURES, ROOT, run_cli

CLEAN = "fixtures/yunikorn/clean/queues.yaml"
CLEAN_CM = "fixtures/yunikorn/clean/configmap.yaml"
BROKEN = "fixtures/yunikorn/broken/queues.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "output" / "queues.json").read_text())


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    monkeypatch.chdir(ROOT)  # relative paths in the output, as a user would run it


def reports(*paths):
    loaded = load(list(paths))
    return build_reports(load_inputs([o for o in loaded.objects if o.kind in ("SchedulerConfig", "ConfigMap")]))


def test_table_snapshot(snapshot):
    assert queues_text.render_table(reports(CLEAN), view=View(width=200)) == snapshot


def test_tree_snapshot(snapshot):
    assert queues_text.render_tree(reports(CLEAN), view=View(width=160)) == snapshot


def test_plain_snapshot(snapshot):
    assert queues_text.render_plain(reports(CLEAN)) == snapshot


def test_json_snapshot(snapshot):
    assert queues_json.render(reports(CLEAN)) == snapshot


def test_broken_table_snapshot(snapshot):
    """An invalid config is still shown, with YuniKorn's own error and the values it falls back to."""
    assert queues_text.render_table(reports(BROKEN), view=View(width=200)) == snapshot


def test_json_matches_schema_for_every_input():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    paths = [CLEAN, CLEAN_CM, BROKEN, "fixtures/yunikorn/broken/configmap.yaml"]
    paths += sorted(str(p) for p in (CASES / "yunikorn-lint").glob("*/queues.yaml"))
    for path in paths:
        doc = json.loads(queues_json.render(reports(path)))
        validator.validate(doc)


def test_configmap_form_shows_the_same_tree():
    bare = json.loads(queues_json.render(reports(CLEAN)))["configs"][0]
    wrapped = json.loads(queues_json.render(reports(CLEAN_CM)))["configs"][0]
    assert wrapped["kind"] == "ConfigMap" and wrapped["origin"] == "ConfigMap/yunikorn/yunikorn-configs data[queues.yaml]"
    assert wrapped["partitions"] == bare["partitions"]


def test_json_content():
    doc = json.loads(queues_json.render(reports(CLEAN)))
    [cfg] = doc["configs"]
    assert cfg["valid"] and cfg["rejectedWith"] is None
    root = cfg["partitions"][0]["root"]
    research = root["queues"][1]["queues"][0]
    assert research["path"] == "root.tenants.research"
    assert research["priority"] == {"policy": "fence", "offset": 100, "fence": True,
                                    "atRoot": "100 (fenced at root.tenants.research)"}
    assert research["preemption"] == {"policy": "fence", "fence": True, "disabled": False, "delay": "2m0s"}
    assert research["settings"]["application.sort.policy"] == {
        "value": "fair", "source": "inherited", "from": "root.tenants", "written": "fair", "note": None}
    assert research["guaranteed"] == {"vcore": 32000, "memory": 128 * 2**30, "nvidia.com/gpu": 8}
    analytics = root["queues"][1]["queues"][1]
    assert analytics["effectiveMax"]["nvidia.com/gpu"] == 16  # from root.tenants
    assert cfg["partitions"][0]["placementRules"][1] == {
        "index": 1, "chain": "fixed->tag", "create": True, "values": ["root.tenants", "namespace"], "filter": None}


def test_broken_config_reports_yunikorns_error():
    [cfg] = json.loads(queues_json.render(reports(BROKEN)))["configs"]
    assert not cfg["valid"] and cfg["errors"] == 9
    assert cfg["rejectedWith"].startswith("yaml: unmarshal errors: line 47: field maxApplications not found")
    system = cfg["partitions"][0]["root"]["queues"][0]
    assert system["settings"]["priority.offset"]["source"] == "fallback"
    assert system["priority"]["offset"] == 0


# ------------------------------------------------------------------------------------ CLI -----

def test_cli_outputs(wired):
    for fmt in ("table", "plain", "tree", "json"):
        result = run_cli("queues", "-f", CLEAN, "--output", fmt)
        assert result.exit_code == 0, result.stdout
        assert "research" in result.stdout
    doc = json.loads(run_cli("queues", "-f", CLEAN, "-o", "json").stdout)
    assert doc["version"] == 1
    # piped (not a TTY): table falls back to plain
    assert run_cli("queues", CLEAN).stdout == run_cli("queues", CLEAN, "-o", "plain").stdout


def test_cli_partition_filter(wired):
    doc = json.loads(run_cli("queues", CLEAN, "-o", "json", "--partition", "default").stdout)
    assert [p["name"] for p in doc["configs"][0]["partitions"]] == ["default"]
    result = run_cli("queues", CLEAN, "--partition", "gpu")
    assert result.exit_code == 2 and "no partition named 'gpu'" in result.stderr


def test_cli_invalid_config_still_shown(wired):
    result = run_cli("queues", BROKEN, "-o", "plain")
    assert result.exit_code == 0
    assert "INVALID (9 errors)" in result.stdout and "YuniKorn rejects it:" in result.stdout


@pytest.mark.parametrize("args,message", [
    ((), "no input"),
    (("fixtures/cluster/clusterqueues.yaml",), "input holds Kueue objects"),
    (("fixtures/cluster/clusterqueues.yaml", CLEAN), "mixes Kueue and YuniKorn"),
    (("does-not-exist.yaml",), "no such file"),
])
def test_cli_input_errors(wired, args, message):
    result = run_cli("queues", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_cli_yaml_syntax_error(wired, tmp_path):
    bad = tmp_path / "queues.yaml"
    bad.write_text("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: *\n")
    result = run_cli("queues", str(bad))
    assert result.exit_code == 2 and "YAML syntax error" in result.stderr


def test_cli_stdin(wired):
    text = (FIXTURES / "yunikorn" / "clean" / "queues.yaml").read_text()
    result = run_cli("queues", "-", "-o", "json", input=text)
    assert result.exit_code == 0 and json.loads(result.stdout)["configs"][0]["file"] == "<stdin>"


def test_no_color_env_keeps_plain(wired, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    out = run_cli("queues", CLEAN, "-o", "tree").stdout
    assert "\x1b[" not in out and os.linesep in out
