"""Files that are not manifests yet (IN014): Helm charts and templates, Kustomizations and their
patches; and what must stay a manifest (documentation snippets: test_snippets.py)."""

import pytest

from quotactl.load.nonmanifest import chart_of, helm_action_line, screen
from quotactl.load.objects import load
from quotactl.load.sources import Source

CQ = ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
      "  namespaceSelector: {}\n")


def write(root, files: dict[str, str]):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.mark.parametrize("text,line", [
    ("metadata:\n  name: {{ .Values.name }}\n", 2),
    ("{{- if .Values.enabled }}\nkind: LocalQueue\n{{- end }}\n", 1),
    ("metadata:\n  labels:\n    {{- include \"chart.labels\" . | nindent 4 }}\n", 3),
    ("spec: {{ toYaml $spec }}\n", 1),
])
def test_helm_actions(text, line):
    assert helm_action_line(text) == line


@pytest.mark.parametrize("text", [
    "args: ['{{inputs.parameters.message}}']\n",  # an Argo workflow's own template syntax
    "run: echo ${{ secrets.TOKEN }}\n",  # GitHub Actions
    "description: use {{ }} braces\n", "kind: ClusterQueue\n",
    "annotations:\n  description: \"{{ $labels.instance }} is down\"\n",  # a Prometheus rule
    "data:\n  slack.tmpl: |\n    {{ define \"t\" }}{{ range .Alerts }}{{ .Labels.x }}{{ end }}{{ end }}\n",
])
def test_other_braces_are_not_helm(text):
    assert helm_action_line(text) is None


PROMETHEUS_RULES = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: rules, namespace: mon}\ndata:\n"
                    "  rules.yaml: |\n    - alert: Down\n      annotations:\n"
                    "        summary: \"{{ $labels.instance }} down\"\n")


def test_go_templates_in_yaml_values_stay_manifests(tmp_path):
    f = write(tmp_path, {"rules.yaml": PROMETHEUS_RULES}) / "rules.yaml"
    result = load([str(f)])
    assert [d.code for d in result.diagnostics] == ["IN003"]  # a ConfigMap quotactl does not check, not IN014


def test_a_go_template_that_is_not_yaml_is_one_note(tmp_path):
    f = write(tmp_path, {"t.yaml": "{{- if .enabled }}\napiVersion: v1\nkind: Namespace\n{{- end }}\n"}) / "t.yaml"
    result = load([str(f)])
    assert result.objects == []
    assert [(d.code, d.line, d.input_error) for d in result.diagnostics] == [("IN014", 1, False)]
    assert "helm template CHART | quotactl lint -" in result.diagnostics[0].message


def test_a_chart_is_one_note_and_its_crds_are_linted(tmp_path):
    write(tmp_path, {
        "chart/Chart.yaml": "apiVersion: v2\nname: q\nversion: 0.1.0\n",
        "chart/values.yaml": "queue: a\n",
        "chart/templates/lq.yaml": "metadata:\n  name: {{ .Values.queue }}\n",
        "chart/templates/_helpers.tpl.yaml": "{{- define \"x\" -}}\n{{- end }}\n",
        "chart/charts/sub/Chart.yaml": "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
        "chart/charts/sub/templates/cq.yaml": "kind: {{ .Values.kind }}\n",
        "chart/crds/cq.yaml": CQ,
    })
    result = load([str(tmp_path / "chart")])
    notes = [d for d in result.diagnostics if d.code == "IN014"]
    assert len(notes) == 1
    (note,) = notes
    chart = tmp_path / "chart"
    assert (note.file, note.line, note.severity.value) == (str(chart / "Chart.yaml"), 1, "info")
    assert "6 files" in note.message and f"helm template {chart} | quotactl lint -" in note.message
    assert [o.display for o in result.objects] == ["ClusterQueue/cq"]  # crds/ holds plain manifests
    assert not any(d.input_error for d in result.diagnostics)


def test_chart_membership(tmp_path):
    write(tmp_path, {"c/Chart.yaml": "name: c\n", "c/templates/a.yaml": "", "c/values-prod.yaml": "",
                     "c/crds/x.yaml": "", "c/examples/x.yaml": "", "plain/x.yaml": ""})
    c = tmp_path / "c"
    assert [chart_of(str(tmp_path / rel)) for rel in ("c/Chart.yaml", "c/templates/a.yaml", "c/values-prod.yaml",
                                                     "c/crds/x.yaml", "c/examples/x.yaml", "plain/x.yaml")] == [
        c, c, c, None, None, None]


def test_a_kustomization_its_patch_and_its_resources(tmp_path):
    write(tmp_path, {
        "kz/kustomization.yaml": "resources: [cq.yaml]\npatches:\n- path: patch.yaml\n  target: {kind: ClusterQueue}\n"
                                 "- patch: |-\n    - op: remove\n      path: /spec/cohort\n"
                                 "patchesStrategicMerge: [../common/smp.yaml]\n"
                                 "patchesJson6902:\n- path: ops.yaml\n  target: {kind: ClusterQueue, name: cq}\n",
        "kz/cq.yaml": CQ,
        "kz/patch.yaml": "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec: {cohort: x}\n",
        "kz/ops.yaml": "- op: add\n  path: /spec/cohort\n  value: y\n",
        "common/smp.yaml": "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\n",
    })
    result = load([str(tmp_path / "kz"), str(tmp_path / "common")])
    notes = {(d.file, d.message.split(":")[0]) for d in result.diagnostics if d.code == "IN014"}
    kz = tmp_path / "kz"
    assert notes == {(str(kz / "kustomization.yaml"), "Kustomization"),
                     (str(kz / "patch.yaml"), f"Kustomize patch named by {kz / 'kustomization.yaml'}"),
                     (str(kz / "ops.yaml"), f"Kustomize patch named by {kz / 'kustomization.yaml'}"),
                     (str(tmp_path / "common" / "smp.yaml"), f"Kustomize patch named by {kz / 'kustomization.yaml'}")}
    assert all(f"kubectl kustomize {kz} | quotactl lint -" in d.message for d in result.diagnostics if d.code == "IN014")
    assert [o.display for o in result.objects] == ["ClusterQueue/cq"]  # the resource is a manifest: linted
    assert [d.code for d in result.diagnostics if d.code != "IN014"] == []


def test_a_patch_given_alone_is_known_by_the_kustomization_beside_it(tmp_path):
    write(tmp_path, {"kz/kustomization.yml": "patchesStrategicMerge:\n- smp.yaml\n",
                     "kz/smp.yaml": "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\n"})
    result = load([str(tmp_path / "kz" / "smp.yaml")])
    assert result.objects == []
    assert [d.code for d in result.diagnostics] == ["IN014"]


def test_kind_kustomization_on_stdin(tmp_path):
    text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n"
    kept, notes = screen([Source("<stdin>", text)])
    assert kept == [] and len(notes) == 1
    assert "kubectl kustomize DIR | quotactl lint -" in notes[0].message


def test_a_broken_template_does_not_hide_the_other_files(tmp_path):
    write(tmp_path, {"a/lq.yaml": "kind: LocalQueue\nmetadata:\n  name: {{ .Values.x }}\n  labels: {{ include \"l\" . }}\n",
                     "a/cq.yaml": CQ})
    result = load([str(tmp_path / "a")])
    assert [o.display for o in result.objects] == ["ClusterQueue/cq"]
    assert [(d.code, d.line) for d in result.diagnostics] == [("IN014", 3)]


def test_manifests_and_unreadable_files_pass_through():
    sources = [Source("a.yaml", CQ), Source("b.yaml", None)]
    assert screen(sources) == (sources, [])


def test_no_manifest_of_the_repository_is_taken_for_a_template():
    """Precision: the fixtures and acceptance cases (real manifests, upstream samples, invalid
    objects, YuniKorn configs) are all read as manifests."""
    from quotactl.load.sources import collect_sources
    from tests.helpers import CASES, FIXTURES

    sources, _ = collect_sources([str(FIXTURES), str(CASES)])
    assert len(sources) > 500
    assert screen(sources)[1] == []
