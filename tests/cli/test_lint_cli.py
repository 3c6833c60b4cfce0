import json

from tests.helpers import FIXTURES, run_cli, run_json, run_subprocess


def test_clean_fixture_exits_zero():
    result = run_cli("lint", FIXTURES / "cluster")
    assert result.exit_code == 0, result.stdout
    assert "no problems found" in result.stdout


def test_broken_fixture_exits_one_with_errors():
    code, doc = run_json("lint", FIXTURES / "broken")
    assert code == 1
    assert doc["version"] == 1
    assert doc["summary"]["errors"] > 10
    for d in doc["diagnostics"]:
        assert d["line"] >= 1 and d["column"] >= 1 and d["file"] and d["code"]


def test_output_is_deterministic():
    a = run_cli("lint", FIXTURES / "broken", "-o", "json").stdout
    b = run_cli("lint", FIXTURES / "broken", "-o", "json").stdout
    assert a == b


def test_select_and_ignore():
    _, all_diags = run_json("lint", FIXTURES / "broken")
    codes = {d["code"] for d in all_diags["diagnostics"]}
    some = sorted(codes)[0]
    _, selected = run_json("lint", FIXTURES / "broken", "--select", some)
    assert {d["code"] for d in selected["diagnostics"]} <= {some} | {c for c in codes if c.startswith("IN")}
    _, ignored = run_json("lint", FIXTURES / "broken", "--ignore", some)
    assert some not in {d["code"] for d in ignored["diagnostics"]}


def test_strict_fails_on_warnings(tmp_path):
    f = tmp_path / "cq.yaml"
    # No namespaceSelector: legal, but no namespace can use the queue (a warning).
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
                 "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
                 "      resources:\n      - {name: cpu, nominalQuota: 1}\n")
    code, doc = run_json("lint", f)
    assert doc["summary"]["errors"] == 0
    assert doc["summary"]["warnings"] >= 1
    assert code == 0
    assert run_cli("lint", f, "--strict").exit_code == 1


def test_stdin():
    text = (FIXTURES / "cluster" / "flavors.yaml").read_text()
    result = run_cli("lint", "-", "-o", "json", input=text)
    doc = json.loads(result.stdout)
    assert result.exit_code == 0
    assert doc["summary"]["objects"] == 3


def test_missing_file_is_an_input_error():
    result = run_cli("lint", "does/not/exist.yaml", "-o", "plain")
    assert result.exit_code == 2
    assert "does/not/exist.yaml:1:1: error IN012 no such file or directory" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_no_input_is_a_usage_error():
    result = run_cli("lint")
    assert result.exit_code == 2


def test_syntax_error_in_one_file_still_checks_the_others(tmp_path):
    good = tmp_path / "a.yaml"
    good.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: Bad_Name}\nspec: {}\n")
    bad = tmp_path / "b.yaml"
    bad.write_text("apiVersion: v1\nkind: [\n")
    code, doc = run_json("lint", tmp_path)
    assert code == 2
    codes = {(d["code"], d["file"].split("/")[-1]) for d in doc["diagnostics"]}
    assert ("IN001", "b.yaml") in codes
    assert ("KQ009", "a.yaml") in codes


def test_rules_list_and_one_doc():
    result = run_cli("rules", "-o", "json")
    doc = json.loads(result.stdout)
    codes = [r["code"] for r in doc["rules"]]
    assert "KQ104" in codes and "IN001" in codes
    one = run_cli("rules", "kq104")
    assert one.exit_code == 0 and "KQ104" in one.stdout and "How to fix" in one.stdout
    missing = run_cli("rules", "KQ9999")
    assert missing.exit_code == 2


def test_subprocess_end_to_end():
    proc = run_subprocess("lint", "fixtures/broken", "--output", "plain")
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("fixtures/broken/")
    assert proc.stdout.rstrip().splitlines()[-1].endswith("info")


def test_subprocess_version_and_help():
    assert run_subprocess("--version").stdout.startswith("quotactl ")
    assert "lint" in run_subprocess("--help").stdout
