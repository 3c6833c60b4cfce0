"""``quotactl convert`` end to end, through a real subprocess."""

import json

import pytest

from tests.helpers import run_subprocess

CQ = """\
# team queue
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: team-a
spec:
  cohort: all   # shared
  namespaceSelector: {}
  resourceGroups: []
"""
LOSSY = """\
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: n}
spec:
  queueName: q
  priorityClassName: high
  podSets: []
"""


@pytest.fixture
def cq_file(tmp_path):
    f = tmp_path / "cq.yaml"
    f.write_text(CQ)
    return f


def test_stdout_by_default_file_untouched(cq_file):
    r = run_subprocess("convert", "--to", "v1beta2", cq_file)
    assert r.returncode == 0, r.stderr
    assert r.stdout == CQ.replace("v1beta1", "v1beta2").replace("cohort: all", "cohortName: all")
    assert cq_file.read_text() == CQ


def test_in_place_rewrites_and_a_second_run_changes_nothing(cq_file):
    assert run_subprocess("convert", "--to", "v1beta2", "--in-place", cq_file).returncode == 0
    assert "cohortName: all" in cq_file.read_text()
    again = run_subprocess("convert", "--to", "v1beta2", "--check", cq_file)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


def test_check_exits_one_and_names_the_file(cq_file):
    r = run_subprocess("convert", "--to", "v1beta2", "--check", cq_file)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip() == f"{cq_file}: would convert 1 object to v1beta2"
    assert cq_file.read_text() == CQ


def test_diff_is_a_unified_diff(cq_file):
    r = run_subprocess("convert", "--to", "v1beta2", "--diff", cq_file)
    assert r.returncode == 0
    assert f"--- {cq_file}\n+++ {cq_file}\n" in r.stdout
    assert "-  cohort: all   # shared\n+  cohortName: all   # shared\n" in r.stdout


def test_lost_field_blocks_the_file_unless_forced(tmp_path):
    f = tmp_path / "wl.yaml"
    f.write_text(LOSSY)
    r = run_subprocess("convert", "--to", "v1beta2", "--in-place", f)
    assert r.returncode == 1
    assert f"{f}:6:3: error: Workload/n/w spec.priorityClassName: dropped:" in r.stderr
    assert f.read_text() == LOSSY
    forced = run_subprocess("convert", "--to", "v1beta2", "--in-place", "--force", f)
    assert forced.returncode == 0 and ": warning: Workload/n/w" in forced.stderr
    assert "priorityClassName" not in f.read_text()


def test_directory_and_json(tmp_path):
    (tmp_path / "a.yaml").write_text(CQ)
    (tmp_path / "b.json").write_text(json.dumps({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor",
                                                 "metadata": {"name": "f"}}, indent=2))
    r = run_subprocess("convert", "--to", "v1beta2", "--in-place", tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "b.json").read_text())["apiVersion"] == "kueue.x-k8s.io/v1beta2"
    assert (tmp_path / "a.yaml").read_text().startswith("# team queue\napiVersion: kueue.x-k8s.io/v1beta2\n")


def test_stdin_to_stdout():
    r = run_subprocess("convert", "--to", "v1beta2", "-", input=CQ)
    assert r.returncode == 0 and "cohortName: all" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["convert", "x.yaml"], "give the version to convert to: --to v1beta2"),
    (["convert", "--to", "v1beta3", "x.yaml"], "--to v1beta3: quotactl converts to v1beta2 only"),
    (["convert", "--to", "v1beta2"], "no input"),
    (["convert", "--to", "v1beta2", "--in-place", "-"], "--in-place cannot rewrite stdin"),
])
def test_usage_errors_are_one_line_exit_two(args, message):
    r = run_subprocess(*args)
    assert r.returncode == 2
    [line] = r.stderr.strip().splitlines()
    assert line.startswith("quotactl: error: ") and message in line


def test_missing_file_is_one_input_error_line():
    r = run_subprocess("convert", "--to", "v1beta2", "missing.yaml")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["missing.yaml:1:1: error IN012 no such file or directory"]


def test_unparsable_file_is_exit_two_with_its_position(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta1\nkind: [oops\n")
    r = run_subprocess("convert", "--to", "v1beta2", "--in-place", f)
    assert r.returncode == 2 and r.stderr.startswith(f"{f}:") and "Traceback" not in r.stderr
    assert f.read_text().endswith("[oops\n")
