"""Numbers the round trip cannot hold (an int with more digits than Python converts, a float that
overflows or underflows) are written back as the user wrote them, in YAML and in JSON; the
conversion limit itself stays as it is (found by the fuzzer: a 5,000-digit observedGeneration)."""

import json
import sys

import pytest

from quotactl.convert.files import convert_text
from quotactl.convert.scalars import (
    KeptNumber,
    dump_json_keeping_numbers,
    float_is_exact_enough,
    load_json_keeping_numbers,
)

HUGE = "1" * 5000

# priorityClassSource -> priorityClassRef changes the structure: ruamel.yaml rewrites the document.
WORKLOAD = f"""\
apiVersion: kueue.x-k8s.io/v1beta1
kind: Workload
metadata: {{name: w, namespace: a}}
spec:
  queueName: q
  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
  priorityClassName: high
status:
  observedGeneration: {HUGE}
  negative: -{HUGE}
  big: 1.5e99999
  tiny: -2.0e-99999
  hex: 0x{"f" * 5000}
  normal: 7
"""


def test_the_int_conversion_limit_is_not_lifted():
    assert sys.get_int_max_str_digits() == 4300  # the fix keeps text; it does not raise the limit
    with pytest.raises(ValueError):
        int(HUGE)


def test_a_rewritten_yaml_document_keeps_huge_numbers_as_written():
    result = convert_text(WORKLOAD, "w.yaml")
    assert not result.input_errors
    assert "priorityClassRef:" in result.text  # rewritten, not edited in place
    for line in WORKLOAD.splitlines()[8:]:
        assert line in result.text.splitlines()


def test_a_json_document_keeps_huge_numbers_as_written():
    text = (f'{{"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload", "metadata": {{"name": "w"}}, '
            f'"spec": {{"queueName": "q", "priorityClassSource": "kueue.x-k8s.io/workloadpriorityclass"}}, '
            f'"status": {{"observedGeneration": {HUGE}, "big": -1e99999, "tiny": 5E-99999, "normal": 2.5}}}}\n')
    result = convert_text(text, "w.json")
    assert not result.input_errors
    assert f'"observedGeneration": {HUGE}, "big": -1e99999, "tiny": 5E-99999, "normal": 2.5' in result.text
    assert result.text.endswith("}\n")


def test_json_placeholders_cannot_be_taken_for_the_users_text():
    data = load_json_keeping_numbers(f'{{"a": "quotactl-kept-0-0", "quotactl-kept-1-": [{HUGE}, "quotactl-kept-2-x"]}}')
    assert data["quotactl-kept-1-"][0] == KeptNumber(HUGE, "tag:yaml.org,2002:int")
    out = dump_json_keeping_numbers(data, None)
    assert out == f'{{"a": "quotactl-kept-0-0", "quotactl-kept-1-": [{HUGE}, "quotactl-kept-2-x"]}}'
    assert json.loads(out.replace(HUGE, "1"))["a"] == "quotactl-kept-0-0"


@pytest.mark.parametrize("text,exact", [
    ("1.5", True), ("1e300", True), ("0.0", True), ("-0.0e10", True), (".inf", True), ("-.Inf", True),
    (".nan", True), ("Infinity", True), ("1e400", False), ("-1.5e99999", False), ("1e-400", False),
    ("0.5e-99999", False),
])
def test_which_floats_are_kept_as_text(text, exact):
    value = float(text.replace(".inf", "inf").replace(".Inf", "inf").replace(".nan", "nan"))
    assert float_is_exact_enough(text, value) is exact


def test_ordinary_numbers_still_round_trip_as_values():
    data = load_json_keeping_numbers('{"a": 12, "b": 2.5, "c": 1e3}')
    assert data == {"a": 12, "b": 2.5, "c": 1000.0}
    assert not any(isinstance(v, KeptNumber) for v in data.values())
