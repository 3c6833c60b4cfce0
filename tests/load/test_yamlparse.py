import pytest

from quotactl.load.document import Pos, format_path
from quotactl.load.embedded import literal_block_offsets
from quotactl.load.objects import load
from quotactl.load.yamlparse import Limits, parse_documents


def test_positions_of_every_field():
    text = "apiVersion: v1\nkind: X\nspec:\n  groups:\n  - name: a\n    items: [1, 2]\n"
    docs, diags = parse_documents(text, "f.yaml")
    assert not diags
    doc = docs[0]
    assert doc.pos(("spec",)).line == 3
    assert doc.pos(("spec", "groups", 0, "name")) .line == 5
    assert doc.pos(("spec", "groups", 0, "name")).column == 5
    assert doc.pos(("spec", "groups", 0, "items", 1)).line == 6
    # a path that does not exist falls back to the nearest ancestor
    assert doc.pos(("spec", "groups", 0, "missing")).line == 5


def test_multi_document_and_syntax_error_keeps_earlier_docs():
    text = "a: 1\n---\nb: 2\n---\nc: [1,\n"
    docs, diags = parse_documents(text, "f.yaml")
    assert [d.data for d in docs] == [{"a": 1}, {"b": 2}]
    assert diags and diags[0].code == "IN001" and diags[0].line >= 5


def test_yaml12_scalars_and_raw_floats():
    docs, _ = parse_documents("a: yes\nb: 1e3\nc: '5'\nd: 0x10\ne: ~\nf: 2026-01-01\n", "f.yaml")
    data = docs[0].data
    assert data["a"] == "yes" and data["c"] == "5" and data["d"] == 16 and data["e"] is None
    assert data["b"] == 1000.0 and data["b"].raw == "1e3"
    assert data["f"] == "2026-01-01"


def test_duplicate_keys_are_reported():
    docs, diags = parse_documents("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert docs[0].data["a"] == 3
    assert [(d.code, d.line) for d in diags] == [("IN008", 3)]


def test_merge_keys():
    docs, diags = parse_documents("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n", "f.yaml")
    assert not diags
    assert docs[0].data["c"] == {"x": 1, "y": 3}


def test_alias_bomb_is_refused_quickly():
    lines = ["a: &a [x,x,x,x,x,x,x,x,x,x]"]
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 10) + "]")
    docs, diags = parse_documents("\n".join(lines) + "\n", "bomb.yaml")
    assert not docs
    assert diags[0].code == "IN007"


def test_alias_limit_counts_only_what_aliases_add():
    many = "items: [" + ", ".join(f"v{i}" for i in range(200)) + "]\n"
    docs, diags = parse_documents(many, "plain.yaml", limits=Limits(max_alias_values=50))
    assert not diags and len(docs[0].data["items"]) == 200  # no alias: never refused
    aliased = "base: &b [" + ", ".join(f"v{i}" for i in range(30)) + "]\nx: *b\ny: *b\n"
    docs, diags = parse_documents(aliased, "alias.yaml", limits=Limits(max_alias_values=50))
    assert not docs and diags[0].code == "IN007"  # the two aliases add 62 values
    docs, diags = parse_documents(aliased, "alias.yaml", limits=Limits(max_alias_values=100))
    assert not diags and docs[0].data["x"] == docs[0].data["base"]


def test_positions_are_computed_per_document_on_first_use():
    text = "a: 1\n---\n# note\nb:\n  c: [x, {d: 2}]\n---\ne: 3\n"
    docs, diags = parse_documents(text, "f.yaml")
    assert not diags and all(d.lazy_positions is not None for d in docs)
    assert docs[1].pos(("b", "c", 1, "d")) == docs[1].pos(("b", "c", 1, "d"))
    assert (docs[1].pos(("b", "c", 1, "d")).line, docs[1].pos(("b", "c", 1, "d")).column) == (5, 11)
    assert docs[1].pos(("b", "c", 1, "d"), value=True).column == 14
    assert docs[2].pos(("e",)).line == 7 and docs[0].lazy_positions is not None


def test_positions_after_non_ascii_text():
    docs, _ = parse_documents("a: 'café ☕'\n---\nb: ünïcode\nc: 1\n", "f.yaml")
    assert (docs[1].pos(("c",)).line, docs[1].pos(("c",)).column) == (4, 1)


def test_json_duplicate_keys_are_reported():
    docs, diags = parse_documents('{"a": 1,\n "a": 2}', "f.json")
    assert [(d.code, d.line) for d in diags] == [("IN008", 2)]


def test_json_list_item_positions_are_exact():
    text = '{"kind": "List", "items": [\n  {"a": 1},\n  {"b": {"c": [1, 2.5e3]}}\n]}\n'
    docs, diags = parse_documents(text, "x.json")
    assert not diags and docs[0].data["items"][1]["b"]["c"][1].raw == "2.5e3"
    assert (docs[0].pos(("items", 1, "b", "c", 1)).line, docs[0].pos(("items", 1, "b", "c", 1)).column) == (3, 19)
    assert docs[0].pos(("items", 0)).line == 2
    assert docs[0].pos(("kind",)).line == 1


def test_deep_nesting_is_refused():
    text = "a: " + "[" * 10000 + "]" * 10000 + "\n"
    docs, diags = parse_documents(text, "deep.yaml")
    assert not docs and diags[0].code == "IN006"


def test_limits_are_configurable():
    docs, diags = parse_documents("a: [[[1]]]\n", "f.yaml", limits=Limits(max_depth=3))
    assert diags and diags[0].code == "IN006"


def test_embedded_offsets():
    docs, _ = parse_documents("a:\n  b: 1\n", "cm.yaml", line_offset=10, column_offset=4)
    assert docs[0].pos(("a", "b")) .line == 12
    assert docs[0].pos(("a", "b")).column == 7


def test_format_path():
    assert format_path(("spec", "resourceGroups", 0, "flavors", 1, "name")) == "spec.resourceGroups[0].flavors[1].name"
    assert format_path(("spec", "podSets", 0, "template", "spec", "containers", 0, "resources", "requests", "cpu")) \
        == "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]"
    assert format_path(("metadata", "annotations", "kueue.x-k8s.io/admission-gated-by")) \
        == "metadata.annotations[kueue.x-k8s.io/admission-gated-by]"


def test_kind_list_and_unknown_kinds(tmp_path):
    f = tmp_path / "list.yaml"
    f.write_text(
        "apiVersion: v1\nkind: List\nitems:\n"
        "- apiVersion: kueue.x-k8s.io/v1beta2\n  kind: ResourceFlavor\n  metadata: {name: a}\n"
        "- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: web}\n"
    )
    result = load([str(f)])
    assert [o.display for o in result.objects] == ["ResourceFlavor/a"]
    assert result.objects[0].ref.pos(("metadata", "name")).line == 6
    assert [d.code for d in result.diagnostics] == ["IN003"]
    assert result.diagnostics[0].severity.value == "info"


def test_json_input(tmp_path):
    f = tmp_path / "rf.json"
    f.write_text('{\n  "apiVersion": "kueue.x-k8s.io/v1beta2",\n  "kind": "ResourceFlavor",\n  "metadata": {"name": "x"}\n}\n')
    result = load([str(f)])
    assert result.objects[0].name == "x"
    assert result.objects[0].ref.pos(("metadata",)).line == 4


def test_directory_is_recursive_and_sorted(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two.yml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: two}\n")
    (tmp_path / "one.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: one}\n")
    (tmp_path / "notes.txt").write_text("not yaml")
    result = load([str(tmp_path)])
    assert [o.name for o in result.objects] == ["two", "one"]  # sorted by path: b/two.yml < one.yaml
    assert len(result.sources) == 2


def test_fast_json_positions_are_lazy_but_exact():
    text = '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": [\n    {"kind": "Namespace", "metadata": {"name": "a"}}\n  ]\n}\n'
    docs, diags = parse_documents(text, "x.json", fast_json=True)
    assert not diags and docs[0].lazy_positions is not None
    assert docs[0].data["items"][0]["metadata"]["name"] == "a"
    assert docs[0].pos(("items", 0, "metadata", "name")).line == 5
    assert docs[0].lazy_positions is None


def test_job_kinds_and_their_context_are_loaded(tmp_path):
    f = tmp_path / "jobs.yaml"
    f.write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\n"
        "apiVersion: kubeflow.org/v9\nkind: PyTorchJob\nmetadata: {name: future}\n---\n"
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\n---\n"
        "apiVersion: example.com/v1\nkind: Sim\nmetadata: {name: s, labels: {kueue.x-k8s.io/queue-name: q}}\n"
    )
    result = load([str(f)])
    assert [(o.display, o.dialect) for o in result.objects] == [
        ("Deployment/default/web", "job"), ("PyTorchJob/default/future", "job"), ("RuntimeClass/kata", "job"),
        ("Sim/default/s", "job")]
    assert result.diagnostics == []


def test_yaml_list_item_positions_are_exact_and_per_item():
    text = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata: {name: a}\n"
            "- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: b\n    labels: {x: 'y'}\n")
    docs, diags = parse_documents(text, "list.yaml")
    assert not diags
    doc = docs[0]
    assert (doc.pos(("items", 1, "metadata", "labels", "x")).line, doc.pos(("items", 1, "metadata", "labels", "x")).column) == (11, 14)
    assert doc.pos(("items", 1, "metadata", "labels", "x"), value=True).column == 17
    assert (doc.pos(("items", 0, "metadata", "name")).line, doc.pos(("items", 0, "metadata", "name")).column) == (6, 14)
    assert doc.pos(("items", 1)).line == 7 and doc.pos(("kind",)).line == 2


def test_syntax_error_in_a_deeply_indented_text_is_a_diagnostic():
    # Deep indentation makes the loader scan the events for depth before composing; a syntax
    # error met by that scan escaped as a ParserError traceback (found by the fuzzer).
    nested = "".join(" " * (3 * i) + f"k{i}:\n" for i in range(50)) + " " * 150 + "leaf: 1\n"
    docs, diags = parse_documents(nested + "  bad: [unclosed\n  - x\n", "deep.yaml")
    assert not docs
    assert [d.code for d in diags] == ["IN001"]
    assert diags[0].line > 50


def test_json_lone_surrogates_become_replacement_characters():
    # As Go's encoding/json decodes them; a lone surrogate left in crashed every UTF-8 report
    # writer (found by the fuzzer). A valid pair is one character.
    text = '{"metadata": {"name": "a\\ud800b", "\\udfffkey": "x"}, "ok": "\\ud83d\\ude00"}'
    docs, diags = parse_documents(text, "s.json")
    assert not diags
    assert docs[0].data == {"metadata": {"name": "a\ufffdb", "\ufffdkey": "x"}, "ok": "\U0001f600"}


def test_yaml_float_copies_keep_their_text():
    import copy
    import pickle

    from quotactl.load.document import YamlFloat

    f = YamlFloat(1000.0, "1e3")
    for copied in (copy.copy(f), copy.deepcopy({"a": [f]})["a"][0], pickle.loads(pickle.dumps(f))):
        assert copied == 1000.0 and copied.raw == "1e3" and isinstance(copied, YamlFloat)


@pytest.mark.parametrize("text, indicator, expected", [
    ("data:\n  k: |\n    a: 1\n", (2, 6), (2, 4)),
    ("data:\n  k: |\n\n   \n      a: 1\n", (2, 6), (2, 6)),  # blank lines before the first content line
    ("data:\r\n  k: |\r\n\r\n    a: 1\r\n", (2, 6), (2, 4)),  # CRLF
    ("data:\n  k: |2\n      a: 1\n", (2, 6), (2, 4)),  # an indentation indicator: the parent's indent + 2
    ("data:\n  k: |\n", (2, 6), (2, 0)),  # nothing below
    ("data:\n  k: v\n", (2, 6), None),  # not a literal block
    ("data:\n", (7, 1), None),  # past the text
])
def test_literal_block_offsets(text, indicator, expected):
    assert literal_block_offsets(text, Pos(*indicator)) == expected
