"""End to end (a real subprocess): typos fail CI (IN013), files that are not manifests are skipped
once with the command that renders them (IN014), a missing path is one error and the rest is still
linted (IN012), object ids carry the namespace."""

import json

import pytest

from tests.helpers import FIXTURES, run_subprocess

GOOD = FIXTURES / "cluster"
LQ = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: shared\n  namespace: team-a\n"
      "spec:\n  clusterQueue: {cq}\n")


def lint_json(*args):
    proc = run_subprocess("lint", *args, "-o", "json")
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def codes(doc, code):
    return [d for d in doc["diagnostics"] if d["code"] == code]


@pytest.mark.parametrize("api_version,kind,meant", [
    ("kueue.x-k8s.io/v1beta2", "Clusterqueue", "ClusterQueue"),
    ("kueue.x-k8s.io/v1beta2", "LocalQeueu", "LocalQueue"),
    ("kueue.x-k8s.io/v1beta3", "clusterqueue", "kueue.x-k8s.io/v1beta2 ClusterQueue"),
    ("kueue.k8s.io/v1beta1", "ClusterQueue", "kueue.x-k8s.io/v1beta1 ClusterQueue"),
    ("kueue.x-k8s.com/v1beta2", "ClusterQueue", "kueue.x-k8s.io/v1beta2 ClusterQueue"),
    ("kueu.x-k8s.io/v1beta2", "ClusterQueue", "kueue.x-k8s.io/v1beta2 ClusterQueue"),
    ("config.kueue.x-k8s.io/v1beta2", "configuration", "Configuration"),
])
def test_a_typo_fails_with_did_you_mean(tmp_path, api_version, kind, meant):
    f = tmp_path / "typo.yaml"
    f.write_text(f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: team-a\n")
    proc = run_subprocess("lint", GOOD, f, "-o", "plain")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error IN013" in proc.stdout and f"did you mean {meant}?" in proc.stdout


@pytest.mark.parametrize("api_version,kind", [("batch/v1", "Jobb"), ("apps/v1", "ClusterQueue"),
                                              ("jobset.x-k8s.io/v1alpha2", "ClusterQueue")])
def test_other_groups_are_skipped_as_before(tmp_path, api_version, kind):
    f = tmp_path / "other.yaml"
    f.write_text(f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: x\n")
    code, doc = lint_json(GOOD, f)
    assert code == 0
    assert codes(doc, "IN013") == [] and len(codes(doc, "IN003")) == 1


def test_an_unserved_version_of_a_known_kind_says_which(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta3\nkind: ResourceFlavor\nmetadata:\n  name: x\n")
    code, doc = lint_json(f)
    assert code == 1
    (d,) = codes(doc, "KQ010")
    assert d["hint"] == "did you mean kueue.x-k8s.io/v1beta2?"


def test_helm_template_is_skipped_and_the_rest_is_linted(tmp_path):
    (tmp_path / "lq.yaml").write_text(LQ.format(cq="nope").replace("name: shared", "name: {{ .Values.name }}"))
    (tmp_path / "broken.yaml").write_text(LQ.format(cq="missing-cq"))
    code, doc = lint_json(GOOD, tmp_path)
    assert code == 1  # the real manifest's finding, not an input error
    (note,) = codes(doc, "IN014")
    assert note["file"] == str(tmp_path / "lq.yaml") and note["severity"] == "info" and note["line"] == 4
    assert "helm template CHART | quotactl lint -" in note["message"]
    assert codes(doc, "IN001") == []
    assert [d["object"] for d in codes(doc, "KQ502")] == ["LocalQueue/team-a/shared"]


def test_a_chart_directory_is_one_note(tmp_path):
    chart = tmp_path / "queues"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: queues\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("name: a\n")
    for i in range(3):
        (chart / "templates" / f"lq{i}.yaml").write_text(LQ.format(cq="{{ .Values.cq }}"))
    proc = run_subprocess("lint", GOOD, chart, "-o", "plain")
    assert proc.returncode == 0, proc.stdout
    lines = [ln for ln in proc.stdout.splitlines() if "IN014" in ln]
    assert lines == [f"{chart / 'Chart.yaml'}:1:1: info IN014 Helm chart {chart}: 5 files (templates, values) "
                     f"skipped: not manifests until Helm renders them; lint the rendered chart: "
                     f"helm template {chart} | quotactl lint -"]


def test_a_kustomization_with_a_patch(tmp_path):
    kz = tmp_path / "overlay"
    kz.mkdir()
    (kz / "kustomization.yaml").write_text("resources: [lq.yaml]\npatches:\n- path: patch.yaml\n")
    (kz / "lq.yaml").write_text(LQ.format(cq="missing-cq"))
    (kz / "patch.yaml").write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\n"
                                   "spec:\n  cohort: x\n")
    code, doc = lint_json(GOOD, kz)
    assert code == 1
    notes = {d["file"]: d["message"] for d in codes(doc, "IN014")}
    assert set(notes) == {str(kz / "kustomization.yaml"), str(kz / "patch.yaml")}
    assert all(f"kubectl kustomize {kz} | quotactl lint -" in m for m in notes.values())
    assert [d["object"] for d in codes(doc, "KQ502")] == ["LocalQueue/team-a/shared"]  # the resource is linted
    assert not any(d["object"] == "ClusterQueue/cq" for d in doc["diagnostics"])  # the patch is not


def test_a_docs_snippet_is_linted_with_one_note(tmp_path):
    (tmp_path / "example.yaml").write_text(LQ.format(cq="<cluster-queue>"))
    code, doc = lint_json(GOOD, tmp_path / "example.yaml")
    assert code == 0
    (note,) = codes(doc, "IN014")
    assert note["line"] == 7 and "documentation snippet" in note["message"]


def test_a_missing_path_is_one_error_and_the_rest_is_linted(tmp_path):
    (tmp_path / "lq.yaml").write_text(LQ.format(cq="missing-cq"))
    missing = tmp_path / "gone.yaml"
    proc = run_subprocess("lint", GOOD, missing, tmp_path / "lq.yaml", "-o", "plain")
    assert proc.returncode == 2
    assert f"{missing}:1:1: error IN012 no such file or directory" in proc.stdout
    assert "KQ502" in proc.stdout and "LocalQueue/team-a/shared" in proc.stdout  # other findings still reported
    assert "Traceback" not in proc.stderr


def test_a_missing_snapshot_file_of_an_engine_command_is_exit_2_with_the_path(tmp_path):
    proc = run_subprocess("schedule", "-f", GOOD, "-f", tmp_path / "gone.yaml")
    assert proc.returncode == 2
    assert f"{tmp_path / 'gone.yaml'}:1:1: error IN012 no such file or directory" in proc.stderr


def test_object_ids_carry_the_namespace(tmp_path):
    (tmp_path / "a.yaml").write_text(LQ.format(cq="missing-cq") + "---\n" + LQ.format(cq="missing-cq").replace(
        "team-a", "team-b"))
    (tmp_path / "cq.yaml").write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n"
                                      "  name: team-a\nspec:\n  resourceGroups: []\n")
    _, doc = lint_json(tmp_path)
    assert sorted(d["object"] for d in codes(doc, "KQ502")) == ["LocalQueue/team-a/shared", "LocalQueue/team-b/shared"]
    assert {d["object"] for d in codes(doc, "KQ211")} == {"ClusterQueue/team-a"}  # cluster-scoped: no namespace


def test_an_engine_command_warns_of_the_misspelt_object_it_leaves_out(tmp_path):
    f = tmp_path / "typo.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Clusterqueue\nmetadata:\n  name: extra\n")
    proc = run_subprocess("schedule", "-f", GOOD, "-f", f, "-o", "json")
    assert proc.returncode in (0, 1)
    json.loads(proc.stdout)
    assert f"{f}:2:7: warning IN013 unknown Kueue kind Clusterqueue (kueue.x-k8s.io/v1beta2); did you mean " \
           "ClusterQueue? (left out)" in proc.stderr
