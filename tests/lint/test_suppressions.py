"""Suppressions: '# quotactl: disable' comments (next node, document, List item, trailing, file),
the quotactl.io/ignore annotation, per-file-ignores, severity overrides and --min-severity."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from quotactl.diagnostics import Severity
from quotactl.lint.context import LintOptions
from quotactl.lint.globs import glob_set
from quotactl.lint.runner import lint_paths
from tests.property_budget import examples

# A ClusterQueue without namespaceSelector: KQ211 (warning) at `spec:`, KQ500 (info) at the flavor
# name (the input has no ResourceFlavor).
CQ = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: {name}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - {{name: cpu, nominalQuota: 1}}
"""


def cq(name: str) -> str:
    return CQ.format(name=name)


def run(tmp_path, text: str, name: str = "input.yaml", **options):
    f = tmp_path / name
    f.write_text(textwrap.dedent(text))
    return lint_paths([str(f)], LintOptions(**options))


def reported(report, code: str) -> list[str]:
    """The objects of ``code``'s reported findings."""
    return sorted(d.object for d in report.diagnostics if d.code == code)


def silenced(report, code: str) -> list[str]:
    return sorted(s.diagnostic.object for s in report.suppressed if s.diagnostic.code == code)


def test_without_suppressions_both_queues_are_reported(tmp_path):
    report = run(tmp_path, cq("a") + "---\n" + cq("b"))
    assert reported(report, "KQ211") == ["ClusterQueue/a", "ClusterQueue/b"]
    assert report.suppressed == []


def test_comment_at_the_top_of_a_document_covers_the_whole_document(tmp_path):
    report = run(tmp_path, cq("a") + "---\n# quotactl: disable=KQ211 owned by the platform team\n" + cq("b"))
    assert reported(report, "KQ211") == ["ClusterQueue/a"]
    assert silenced(report, "KQ211") == ["ClusterQueue/b"]
    (s,) = report.suppressed
    assert (s.suppression.kind, s.suppression.justification) == ("inSource", "owned by the platform team")
    assert s.suppression.line == 13 and s.suppression.file.endswith("input.yaml")
    assert reported(report, "KQ500") == ["ClusterQueue/a"]  # other codes are untouched


def test_comment_before_the_document_marker_covers_the_next_document(tmp_path):
    report = run(tmp_path, cq("a") + "# quotactl: disable=KQ211\n---\n" + cq("b"))
    assert reported(report, "KQ211") == ["ClusterQueue/a"]


def test_comment_before_a_list_item_covers_that_item_only(tmp_path):
    items = textwrap.indent(cq("a"), "  ").replace("  apiVersion", "- apiVersion", 1)
    second = textwrap.indent(cq("b"), "  ").replace("  apiVersion", "- apiVersion", 1)
    text = "apiVersion: v1\nkind: List\nitems:\n" + items + "# quotactl: disable=KQ211\n" + second
    report = run(tmp_path, text)
    assert reported(report, "KQ211") == ["ClusterQueue/a"]
    assert silenced(report, "KQ211") == ["ClusterQueue/b"]


def test_comment_before_a_key_covers_the_block_under_it(tmp_path):
    text = cq("a").replace("spec:\n", "# quotactl: disable=KQ211,KQ500\nspec:\n")
    report = run(tmp_path, text)
    assert reported(report, "KQ211") == reported(report, "KQ500") == []
    assert silenced(report, "KQ500") == ["ClusterQueue/a"]  # KQ500 sits deep inside spec


def test_comment_before_a_nested_line_does_not_reach_its_siblings(tmp_path):
    text = cq("a").replace("    - name: default\n", "    # quotactl: disable=KQ211\n    - name: default\n")
    report = run(tmp_path, text)
    assert reported(report, "KQ211") == ["ClusterQueue/a"]  # KQ211 is at `spec:`, outside the item
    assert [d.code for d in report.diagnostics if d.code == "QL101"] == ["QL101"]  # so the comment is unused


def test_trailing_comment_covers_its_own_line(tmp_path):
    report = run(tmp_path, cq("a").replace("spec:\n", "spec:  # quotactl: disable=KQ211\n"))
    assert silenced(report, "KQ211") == ["ClusterQueue/a"]
    assert reported(report, "KQ500") == ["ClusterQueue/a"]  # deeper lines are not covered


def test_trailing_comment_on_another_line_does_not_suppress(tmp_path):
    report = run(tmp_path, cq("a").replace("kind: ClusterQueue\n", "kind: ClusterQueue  # quotactl: disable=KQ211\n"))
    assert reported(report, "KQ211") == ["ClusterQueue/a"]


def test_bare_disable_covers_every_code(tmp_path):
    report = run(tmp_path, "# quotactl: disable\n" + cq("a"))
    assert report.diagnostics == []
    assert {s.diagnostic.code for s in report.suppressed} == {"KQ211", "KQ500"}


def test_disable_file_anywhere_covers_the_whole_file_and_no_other(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(cq("b"))
    f = tmp_path / "input.yaml"
    f.write_text(cq("a") + "# quotactl: disable-file=KQ211\n")
    report = lint_paths([str(f), str(other)], LintOptions())
    assert reported(report, "KQ211") == ["ClusterQueue/b"]
    assert silenced(report, "KQ211") == ["ClusterQueue/a"]


def test_bare_disable_file_covers_every_code(tmp_path):
    report = run(tmp_path, cq("a") + "---\n" + cq("b") + "# quotactl: disable-file\n")
    assert report.diagnostics == []
    assert silenced(report, "KQ211") == ["ClusterQueue/a", "ClusterQueue/b"] and silenced(report, "KQ500")


def test_unknown_code_in_a_comment_is_a_warning_and_the_known_codes_still_apply(tmp_path):
    report = run(tmp_path, "# quotactl: disable=KQ2111,KQ211\n" + cq("a"))
    (ql,) = [d for d in report.diagnostics if d.code == "QL100"]
    assert ql.severity == Severity.WARNING and ql.line == 1
    assert "'KQ2111'" in ql.message and "did you mean KQ211" in ql.message
    assert silenced(report, "KQ211") == ["ClusterQueue/a"]


def test_malformed_comments_are_warnings_and_silence_nothing(tmp_path):
    for comment in ("# quotactl: disable KQ211", "# quotactl: disable=", "# quotactl: enable=KQ211"):
        report = run(tmp_path, comment + "\n" + cq("a"))
        assert reported(report, "QL100") == [None], comment
        assert reported(report, "KQ211") == ["ClusterQueue/a"], comment


def test_comment_text_that_merely_mentions_quotactl_is_not_a_directive(tmp_path):
    report = run(tmp_path, "# lint with quotactl: see the README\n" + cq("a"))
    assert [d.code for d in report.diagnostics if d.code.startswith("QL")] == []


def test_unused_suppression_is_an_info(tmp_path):
    report = run(tmp_path, "# quotactl: disable=KQ211,KQ506\n" + cq("a"))
    (unused,) = [d for d in report.diagnostics if d.code == "QL101"]
    assert unused.severity == Severity.INFO and "KQ506" in unused.message and "KQ211" not in unused.message


def test_codes_the_run_does_not_check_are_never_called_unused(tmp_path):
    text = "# quotactl: disable=KQ211,KQ506\n" + cq("a")
    assert reported(run(tmp_path, text, ignore=("KQ506",)), "QL101") == []
    assert reported(run(tmp_path, text, select=("KQ2", "QL")), "QL101") == []
    assert reported(run(tmp_path, text, severity=(("KQ506", "off"),)), "QL101") == []
    assert reported(run(tmp_path, text, ignore=("QL101",)), "QL101") == []


def test_annotation_silences_its_codes_in_that_object_only(tmp_path):
    annotated = cq("b").replace("  name: b\n", "  name: b\n  annotations:\n    quotactl.io/ignore: KQ211, kq500\n"
                                "    quotactl.io/ignore-reason: legacy queue, removed in Q3\n")
    report = run(tmp_path, cq("a") + "---\n" + annotated)
    assert reported(report, "KQ211") == ["ClusterQueue/a"]
    assert silenced(report, "KQ211") == ["ClusterQueue/b"]
    assert report.suppressed[0].suppression.justification == "legacy queue, removed in Q3"
    assert [d.code for d in report.diagnostics if d.code.startswith("QL")] == ["QL101"]  # KQ500 is reported on a


def test_annotation_all_in_a_list_item(tmp_path):
    annotated = cq("b").replace("  name: b\n", "  name: b\n  annotations: {quotactl.io/ignore: all}\n")
    text = ("apiVersion: v1\nkind: List\nitems:\n" + textwrap.indent(cq("a"), "  ").replace("  apiV", "- apiV", 1)
            + textwrap.indent(annotated, "  ").replace("  apiV", "- apiV", 1))
    report = run(tmp_path, text)
    assert reported(report, "KQ211") == ["ClusterQueue/a"]
    assert silenced(report, "KQ211") == ["ClusterQueue/b"]
    assert report.suppressed[0].suppression.justification == "quotactl.io/ignore: all"


def test_annotation_with_unknown_code_or_wrong_type_is_a_warning(tmp_path):
    bad_code = cq("a").replace("  name: a\n", "  name: a\n  annotations: {quotactl.io/ignore: KQ2l1}\n")
    report = run(tmp_path, bad_code)
    assert [d.line for d in report.diagnostics if d.code == "QL100"] == [5]
    assert reported(report, "KQ211") == ["ClusterQueue/a"]
    wrong_type = cq("a").replace("  name: a\n", "  name: a\n  annotations: {quotactl.io/ignore: [KQ211]}\n")
    assert "must be a string" in next(d.message for d in run(tmp_path, wrong_type).diagnostics if d.code == "QL100")


YUNIKORN_CONFIGMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
  namespace: yunikorn
data:
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            queues:
              # quotactl: disable=YK201 the operator sets it
              - name: a
                properties:
                  priority.offset: high
              - name: b
                properties:
                  priority.offset: high
"""


def test_comments_inside_a_yunikorn_configmaps_queues_yaml(tmp_path):
    report = run(tmp_path, YUNIKORN_CONFIGMAP)
    assert reported(report, "YK201") == ["queue/root.b"]
    assert silenced(report, "YK201") == ["queue/root.a"]
    assert report.suppressed[0].suppression.justification == "the operator sets it"


def test_comments_in_a_bare_queues_yaml(tmp_path):
    text = "\n".join(line[4:] for line in YUNIKORN_CONFIGMAP.splitlines()[7:]) + "\n"
    without = "".join(line for line in text.splitlines(keepends=True) if "quotactl:" not in line)
    report = run(tmp_path, without, name="queues.yaml")
    assert reported(report, "YK201") == ["queue/root.a", "queue/root.b"]
    report = run(tmp_path, text, name="queues.yaml")
    assert reported(report, "YK201") == ["queue/root.b"]


def test_annotation_on_a_yunikorn_configmap(tmp_path):
    text = YUNIKORN_CONFIGMAP.replace("  namespace: yunikorn\n", "  namespace: yunikorn\n"
                                      "  annotations:\n    quotactl.io/ignore: YK201\n")
    report = run(tmp_path, text)
    assert reported(report, "YK201") == []
    assert silenced(report, "YK201") == ["queue/root.a", "queue/root.b"]


def test_input_errors_are_not_suppressible(tmp_path):
    report = run(tmp_path, "# quotactl: disable-file\n# quotactl: disable=IN001\napiVersion: v1\nkind: [\n")
    assert [d.code for d in report.diagnostics if d.input_error] == ["IN001"]
    assert report.has_input_errors and report.suppressed == []


def test_per_file_ignores_are_external_suppressions(tmp_path):
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "a.yaml").write_text(cq("a"))
    (tmp_path / "b.yaml").write_text(cq("b"))
    rules = tuple((g, ("KQ2",)) for g in glob_set(["team/*.yaml"], tmp_path).globs)
    report = lint_paths([str(tmp_path)], LintOptions(per_file_ignores=rules, config_file="pyproject.toml"))
    assert reported(report, "KQ211") == ["ClusterQueue/b"]
    (s,) = report.suppressed
    assert s.suppression.kind == "external" and s.suppression.file is None
    assert s.suppression.justification == "per-file-ignores 'team/*.yaml' in pyproject.toml"


def test_severity_overrides_longest_prefix_wins_and_off_removes(tmp_path):
    report = run(tmp_path, cq("a"), severity=(("KQ", "info"), ("KQ211", "error")))
    assert {d.code: d.severity for d in report.diagnostics} == {"KQ211": Severity.ERROR, "KQ500": Severity.INFO}
    report = run(tmp_path, cq("a"), severity=(("KQ211", "off"),))
    assert reported(report, "KQ211") == []
    assert report.suppressed == []  # off is not a suppression: the rule does not run


def test_severity_override_leaves_input_errors_alone(tmp_path):
    report = run(tmp_path, "apiVersion: v1\nkind: [\n", severity=(("IN001", "info"),))
    assert [(d.code, d.severity) for d in report.diagnostics] == [("IN001", Severity.ERROR)]


def test_min_severity_hides_lower_findings_and_their_suppressed_count(tmp_path):
    text = "# quotactl: disable=KQ500\n" + cq("a")
    assert {d.code for d in run(tmp_path, text).diagnostics} == {"KQ211"}
    report = run(tmp_path, text, min_severity=Severity.WARNING)
    assert [d.code for d in report.diagnostics] == ["KQ211"] and report.suppressed == []
    report = run(tmp_path, cq("a"), min_severity=Severity.ERROR)
    assert report.diagnostics == []
    report = run(tmp_path, cq("a"), min_severity=Severity.WARNING, severity=(("KQ500", "error"),))
    assert {d.code for d in report.diagnostics} == {"KQ211", "KQ500"}  # the threshold sees the override


@settings(max_examples=examples(25), deadline=None)
@given(codes=st.sets(st.sampled_from(["KQ211", "KQ500", "KQ506", "IN001"]), max_size=4),
       trailing=st.booleans())
def test_suppressing_moves_findings_and_loses_none(tmp_path_factory, codes, trailing):
    """Property: whatever a disable-file names, reported + suppressed == the unsuppressed findings,
    and exactly the named codes move."""
    tmp = tmp_path_factory.mktemp("prop")
    base = lint_paths([str(_write(tmp, "a.yaml", cq("a") + "---\n" + cq("b")))], LintOptions())
    comment = "# quotactl: disable-file" + ("=" + ",".join(sorted(codes)) if codes else "")
    text = cq("a") + "---\n" + cq("b") + (f"extra: 1  {comment}\n" if trailing else f"{comment}\n")
    after = lint_paths([str(_write(tmp, "a.yaml", text.replace("extra: 1  ", "")))], LintOptions())

    def key(d):
        return d.code, d.line, d.object

    moved = sorted(key(s.diagnostic) for s in after.suppressed)
    kept = sorted(key(d) for d in after.diagnostics if not d.code.startswith("QL"))
    assert sorted(moved + kept) == sorted(key(d) for d in base.diagnostics)
    assert {c for c, _, _ in moved} == ({"KQ211", "KQ500"} & codes if codes else {"KQ211", "KQ500"})


def _write(folder, name: str, text: str):
    f = folder / name
    f.write_text(text)
    return f


LAYOUT = """\
# quotactl: disable=KQ211
apiVersion: v1
kind: List
items:
# quotactl: disable=KQ211
- kind: A
  spec:
    # quotactl: disable=KQ211
    list:
    - a
    - b
    other: 1
- kind: B
---
# quotactl: disable=KQ211
kind: C
"""


def test_reach_of_each_comment_in_a_layout():
    from quotactl.lint.yaml_layout import Layout

    layout = Layout(LAYOUT.splitlines())
    assert layout.reach(0) == (1, 13)  # the top of the first document: all of it, up to `---`
    assert layout.reach(4) == (6, 12)  # a compact List item: up to the next item
    assert layout.reach(7) == (9, 11)  # a key with a compact sequence below it
    assert layout.reach(14) == (15, 16)  # the top of the second document


def test_thousands_of_made_up_codes_are_each_reported_and_only_the_first_get_suggestions(tmp_path):
    from quotactl.lint import codes

    text = "".join(f"# quotactl: disable=KQ{10000 + i}\nkey{i}: 1\n" for i in range(codes.MAX_SUGGESTED + 50))
    report = run(tmp_path, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n" + textwrap.indent(text, "  "))
    invalid = [d.message for d in report.diagnostics if d.code == "QL100"]
    assert len(invalid) == codes.MAX_SUGGESTED + 50
    assert "did you mean" in invalid[0] and "did you mean" not in invalid[-1]


@settings(max_examples=examples(40), deadline=None)
@given(spots=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["KQ211", "KQ500", "KQ211,KQ500", ""]),
                                st.booleans()), max_size=5))
def test_comments_anywhere_move_findings_and_lose_none(tmp_path_factory, spots):
    """Property: comments inserted at any line (own-line or trailing), whatever the structure
    around them, only move findings from reported to suppressed."""
    tmp = tmp_path_factory.mktemp("anywhere")
    base_text = ("apiVersion: v1\nkind: List\nitems:\n" + textwrap.indent(cq("a"), "  ").replace("  apiV", "- apiV", 1)
                 + "---\n" + cq("b"))
    base = lint_paths([str(_write(tmp, "a.yaml", base_text))], LintOptions())
    lines = base_text.splitlines()
    for at, codes, trailing in sorted(spots, reverse=True):
        at %= len(lines)
        comment = "# quotactl: disable" + (f"={codes}" if codes else "")
        if trailing and lines[at].strip() and "#" not in lines[at]:
            lines[at] += "  " + comment
        else:
            lines.insert(at, " " * (len(lines[at]) - len(lines[at].lstrip())) + comment)
    after = lint_paths([str(_write(tmp, "a.yaml", "\n".join(lines) + "\n"))], LintOptions())
    base_counts = sorted((d.code, d.object) for d in base.diagnostics)
    after_counts = sorted([(d.code, d.object) for d in after.diagnostics if not d.code.startswith("QL")]
                          + [(s.diagnostic.code, s.diagnostic.object) for s in after.suppressed])
    assert after_counts == base_counts


def test_comments_still_apply_in_a_file_with_one_unusable_object(tmp_path):
    report = run(tmp_path, "metadata: {name: x}\nspec: {}\n---\n# quotactl: disable=KQ211\n" + cq("a"))
    assert [d.code for d in report.diagnostics if d.input_error] == ["IN009"]
    assert silenced(report, "KQ211") == ["ClusterQueue/a"]
