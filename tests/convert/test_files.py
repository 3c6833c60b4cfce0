"""Whole files: untouched bytes stay untouched, comments and order survive, JSON stays JSON."""

import json

from quotactl.convert.files import convert_text, unified_diff

SAMPLE = """\
# Queues of team A. Owner: platform.
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata:
  name: "team-a"        # quoted on purpose
  labels: {tier: 'gold'}
spec:
  # the shared pool
  cohort: all-teams     # trailing comment
  namespaceSelector: {}
  resourceGroups:
    - coveredResources: ["cpu"]
      flavors:
        - name: default
          resources:
            - name: cpu
              nominalQuota: 9   # nine cores
---
apiVersion: v1
kind: ConfigMap
metadata: {name: keep}
data:
  weird:    'spacing'     # stays exactly
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: a}
spec: {clusterQueue: team-a}
"""


def _changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    removed = [line[1:] for line in unified_diff_lines(before, after) if line.startswith("-")]
    added = [line[1:] for line in unified_diff_lines(before, after) if line.startswith("+")]
    return removed, added


def unified_diff_lines(before: str, after: str) -> list[str]:
    import difflib

    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            if not line.startswith(("---", "+++", "@@"))]


def test_only_the_converted_lines_change():
    result = convert_text(SAMPLE, "q.yaml")
    removed, added = _changed_lines(SAMPLE, result.text)
    assert removed == ["apiVersion: kueue.x-k8s.io/v1beta1", "  cohort: all-teams     # trailing comment"]
    assert added == ["apiVersion: kueue.x-k8s.io/v1beta2", "  cohortName: all-teams     # trailing comment"]
    assert result.objects == 1 and result.losses == [] and result.changed


def test_a_restructured_document_keeps_its_comments_quotes_and_order():
    text = SAMPLE.replace("  namespaceSelector: {}\n", "  namespaceSelector: {}\n  admissionChecks: [check]\n")
    result = convert_text(text, "q.yaml")
    removed, added = _changed_lines(text, result.text)
    assert removed == ["apiVersion: kueue.x-k8s.io/v1beta1", "  cohort: all-teams     # trailing comment",
                       "  admissionChecks: [check]"]
    assert added == ["apiVersion: kueue.x-k8s.io/v1beta2", "  cohortName: all-teams # trailing comment",
                     "  admissionChecksStrategy:", "    admissionChecks:", "      - name: check"]  # the file's indented style


def test_documents_with_nothing_to_convert_are_byte_identical():
    result = convert_text(SAMPLE, "q.yaml")
    tail = SAMPLE[SAMPLE.index("---\napiVersion: v1"):]
    assert result.text.endswith(tail)


def test_already_converted_file_is_unchanged():
    once = convert_text(SAMPLE, "q.yaml").text
    again = convert_text(once, "q.yaml")
    assert again.text == once and not again.changed and unified_diff(again) == ""


def test_indented_and_flush_sequences_keep_their_style():
    flush = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: a\nspec:\n" \
            "  admissionChecks:\n  - check\n  resourceGroups:\n  - coveredResources:\n    - cpu\n    flavors: []\n"
    out = convert_text(flush, "f.yaml").text
    assert out.endswith("  resourceGroups:\n  - coveredResources:\n    - cpu\n    flavors: []\n")
    assert "  admissionChecksStrategy:\n    admissionChecks:\n    - name: check\n" in out


def test_kind_list_items_are_converted():
    text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: kueue.x-k8s.io/v1beta1\n  kind: Cohort\n" \
           "  metadata: {name: c}\n  spec: {parentName: root}\n- apiVersion: v1\n  kind: Namespace\n" \
           "  metadata: {name: n}\n"
    out = convert_text(text, "l.yaml").text
    assert out == text.replace("kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1beta2")


def test_json_stays_json_with_its_indent():
    doc = {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload", "metadata": {"name": "w", "namespace": "n"},
           "spec": {"queueName": "q", "priorityClassSource": "scheduling.k8s.io/priorityclass",
                    "priorityClassName": "high", "podSets": []}}
    result = convert_text(json.dumps(doc, indent=4) + "\n", "w.json")
    assert result.text.startswith('{\n    "apiVersion": "kueue.x-k8s.io/v1beta2"')
    converted = json.loads(result.text)
    assert list(converted["spec"]) == ["queueName", "priorityClassRef", "podSets"]


def test_losses_carry_the_position_of_the_field():
    text = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w, namespace: n}\nspec:\n" \
           "  queueName: q\n  priorityClassName: high\n  podSets: []\n"
    result = convert_text(text, "w.yaml")
    [lost] = result.losses
    assert (lost.line, lost.column, lost.object, lost.field) == (6, 3, "Workload/n/w", "spec.priorityClassName")
    assert result.blocked


def test_syntax_error_is_an_input_error_and_nothing_changes():
    text = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: [unclosed\n"
    result = convert_text(text, "bad.yaml")
    assert result.input_errors and result.text == text


def test_a_float_anywhere_in_the_object_converts():
    # Conversion deep-copies the loaded data; the loader's YamlFloat could not be copied (found by
    # the fuzzer: a float creationTimestamp crashed convert with a TypeError).
    text = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: Cohort\nmetadata:\n  name: c\n  creationTimestamp: 0.5\nspec: {}\n"
    result = convert_text(text, "c.yaml")
    assert not result.input_errors
    assert "kueue.x-k8s.io/v1beta2" in result.text and "creationTimestamp: 0.5" in result.text


def test_an_object_with_a_non_string_namespace_converts():
    # convert names the objects it changes; an int namespace crashed the naming (found by the fuzzer)
    text = ("apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata:\n  name: q\n  namespace: 7\n"
            "spec:\n  clusterQueue: cq\n")
    result = convert_text(text, "q.yaml")
    assert not result.input_errors and "kueue.x-k8s.io/v1beta2" in result.text


def test_a_document_repeated_converts_as_each_copy_alone():
    """A chunk converted once is replayed for its copies (same text, objects and losses, each loss at
    its own copy's line): the same as converting copies that differ (here by a comment)."""
    doc = ("---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w, namespace: n}{note}\n"
           "spec:\n  queueName: q\n  priorityClassName: high\n  podSets: []\n  admissionChecks: [check]\n")
    repeated = convert_text(doc.replace("{note}", "") * 3, "w.yaml")
    distinct = convert_text("".join(doc.replace("{note}", f"  # copy {i}") for i in range(3)), "w.yaml")
    alone = convert_text(doc.replace("{note}", ""), "w.yaml")
    assert repeated.text == alone.text * 3
    assert repeated.objects == distinct.objects == 3
    placed = [(loss.line, loss.column, loss.field) for loss in repeated.losses]
    assert placed == [(loss.line, loss.column, loss.field) for loss in distinct.losses]
    assert [line for line, _, _ in placed] == [7, 16, 25]
