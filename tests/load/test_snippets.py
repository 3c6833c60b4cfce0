"""Documentation snippets: their placeholders and elisions found, the elided lines left out of the
parsed text (every other line and column kept), the rest loaded as manifests."""

import pytest

from quotactl.load.objects import load
from quotactl.load.snippets import read_snippet


@pytest.mark.parametrize("text,line", [
    ("metadata:\n  name: <queue-name>\n", 2),
    ("metadata:\n  name: \"<your namespace>\"\n", 2),
    ("spec:\n  resourceGroups:\n  - <resource group>\n", 3),
    ("spec:\n  cohort: x\n  ...\n", 3),
    ("spec:\n  flavors: ...\n", 2),
    ("items:\n- ...\n", 1),  # the whole value of items: placed at the key
])
def test_snippets(text, line):
    assert read_snippet(text).first_line == line


@pytest.mark.parametrize("text", [
    "kind: A\n...\n---\nkind: B\n",  # '...' at column 1 ends a YAML document
    "metadata:\n  annotations:\n    note: use <b>bold</b> here\n",  # not a whole-value placeholder
    "# name: <queue-name>\nkind: A\n",  # a comment
    "data:\n  msg: wait...\n",
    '{"metadata": {"name": "<x>"}}',  # JSON is generated, never a snippet
])
def test_not_snippets(text):
    assert read_snippet(text) is None


def test_placeholders_with_their_keys_and_places():
    text = "metadata:\n  name: <queue>   # fill in\nspec:\n  - '<x>'\n  - name: \"<y>\"\n  k: ...\n"
    found = [(p.text, p.line, p.column, p.key, p.key_line, p.key_column) for p in read_snippet(text).placeholders]
    assert found == [("<queue>", 2, 9, "name", 2, 3), ("'<x>'", 4, 5, None, None, None),
                     ('"<y>"', 5, 11, "name", 5, 5), ("...", 6, 6, "k", 6, 3)]


def test_an_elision_among_keys_is_left_out_and_one_under_its_key_is_its_value():
    text = ("spec:\n  a: 1\n  ...\n  b: 2\nstatus:\n  ...\nitems:\n- x\n- ...\n- y\nmore:\n- ...\n"
            "last:\n  ...\n")
    snippet = read_snippet(text)
    assert snippet.elided_lines == (3, 9)
    assert [(p.line, p.key, p.key_line) for p in snippet.placeholders] == [(6, "status", 5), (12, "more", 11),
                                                                           (14, "last", 13)]
    lines = snippet.text.split("\n")
    assert len(lines) == len(text.split("\n")) and lines[2] == "" and lines[8] == ""


def test_a_snippet_is_loaded_with_its_note(tmp_path):
    (tmp_path / "cq.yaml").write_text(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: <cq>\nspec:\n"
        "  namespaceSelector: {}\n  ...\n  cohortName: team\n")
    result = load([str(tmp_path / "cq.yaml")])
    (cq,) = result.objects
    assert cq.data["spec"] == {"namespaceSelector": {}, "cohortName": "team"}
    assert cq.ref.pos(("spec", "cohortName")).line == 8
    (note,) = result.diagnostics
    assert (note.code, note.line, note.severity.value) == ("IN014", 4, "info")
    assert "1 placeholder value (<cq>) unknown and 1 elided line ('...') left out" in note.message


def test_placeholders_in_flow_collections():
    text = "a:\n  max: {memory: <mem>, \"vcore\": \"<v>\"}\n  l: [<a>, x, '<b>']\n  n: {a: <x>y}\n  m: {a: b <x>}\n"
    found = [(p.text, p.line, p.column, p.key, p.key_column) for p in read_snippet(text).placeholders]
    assert found == [("<mem>", 2, 17, "memory", 9), ('"<v>"', 2, 33, "vcore", 24), ("<a>", 3, 7, None, None),
                     ("'<b>'", 3, 15, None, None)]


@pytest.mark.parametrize("text", [
    "- " * 400 + "<x>\n",  # dashes or a key: read once, not tried in every split
    ("- - : " * 150 + "<x>\n") * 200,
    ("k: [" + "<a>, " * 240 + "<b>]\n") * 200,  # over the line length a snippet's lines have
])
def test_hostile_lines_are_read_in_linear_time(text):
    import time

    began = time.process_time()
    read_snippet(text)
    assert time.process_time() - began < 2
