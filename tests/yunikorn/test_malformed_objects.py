"""Malformed Pods and Nodes never crash the YuniKorn commands: each one is a stderr warning with
its file:line and is left out of the simulation (end to end, as a user runs quotactl)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess

# every namespace gets its own queue (root.default here), as in YuniKorn's built-in config
QUEUES = """\
partitions:
- name: default
  placementrules: [{name: tag, value: namespace, create: true}]
  queues: [{name: root, submitacl: '*'}]
"""

GOOD = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata: {name: runner, namespace: default, uid: u1, labels: {applicationId: app1},
  creationTimestamp: '2026-07-01T12:00:00Z'}
spec: {schedulerName: yunikorn, nodeName: n1, containers: [{name: c, resources: {requests: {cpu: '2'}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: waiter, namespace: default, uid: u2, labels: {applicationId: app2},
  creationTimestamp: '2026-07-01T12:01:00Z'}
spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: {cpu: '1'}}}]}
status: {phase: Pending}
"""

# One malformed object per document; the line of the field at fault and what the warning says.
MALFORMED = [
    ("spec: {schedulerName: yunikorn, containers: [5]}", "Pod/default/int-container",
     "spec.containers[0] is an integer, not a map"),
    ("spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: lots}}]}",
     "Pod/default/string-requests", "spec.containers[0].resources.requests is a string, not a map"),
    ("spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: {memory: 99999Ei}}}]}",
     "Pod/default/huge", "spec.containers[0].resources.requests[memory] is too large"),
    ("spec: {schedulerName: yunikorn, containers: [{name: c, resources: {requests: {cpu: two}}}]}",
     "Pod/default/bad-quantity", "spec.containers[0].resources.requests[cpu] is not a quantity"),
]


def _malformed_docs() -> tuple[str, list[tuple[int, str, str]]]:
    """The malformed objects' text and, per object, (line of the fault, object, message)."""
    docs, expected, line = [], [], 1
    for spec, display, message in MALFORMED:
        name = display.rsplit("/", 1)[1]
        docs.append(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\n{spec}\n")
        expected.append((line + 3, display, message))
        line += 5  # four lines and the '---' separator
    docs.append("apiVersion: v1\nkind: Pod\nmetadata: [not, a, map]\nspec: {schedulerName: yunikorn}\n")
    expected.append((line + 2, "Pod/default/<unnamed>", "metadata is a list, not a map"))
    line += 5
    docs.append("apiVersion: v1\nkind: Pod\nmetadata: {name: ann, namespace: default, annotations: [a]}\n"
                "spec: {schedulerName: yunikorn}\n")
    expected.append((line + 2, "Pod/default/ann", "metadata.annotations is a list, not a map"))
    line += 5
    docs.append("apiVersion: v1\nkind: Node\nmetadata: {name: n2}\nstatus: {allocatable: {cpu: [1]}}\n")
    expected.append((line + 3, "Node/n2", "status.allocatable[cpu] is not a quantity"))
    return "---\n".join(docs), expected


@pytest.fixture()
def inputs(tmp_path):
    (tmp_path / "queues.yaml").write_text(QUEUES)
    (tmp_path / "state.yaml").write_text(GOOD)
    text, expected = _malformed_docs()
    (tmp_path / "bad.yaml").write_text(text)
    args = ["-f", tmp_path / "queues.yaml", "-f", tmp_path / "state.yaml", "-f", tmp_path / "bad.yaml"]
    return args, tmp_path / "bad.yaml", expected


def _assert_warned(stderr: str, bad_file, expected) -> None:
    assert "Traceback" not in stderr
    warnings = [line for line in stderr.splitlines() if "left out of the simulation" in line]
    assert len(warnings) == len(expected), stderr
    for warning, (line, display, message) in zip(warnings, expected, strict=True):
        assert warning.startswith(f"{bad_file}:{line}:"), warning
        assert f"warning {display}: {message}" in warning


@pytest.mark.parametrize("command", [["explain", "default/waiter"], ["preempt", "default/waiter"], ["queues"]])
def test_malformed_objects_are_warned_about_and_left_out(inputs, command):
    args, bad_file, expected = inputs
    r = run_subprocess(*command, *args, "-o", "json")
    assert r.returncode == 0, r.stderr
    _assert_warned(r.stderr, bad_file, expected)
    doc = json.loads(r.stdout)
    if command[0] == "queues":
        live = doc["configs"][0]["live"]
        assert (live["nodes"], live["pods"]) == (1, 2)  # only the well-formed node and pods


def test_a_malformed_pod_is_not_in_the_input(inputs):
    args, bad_file, expected = inputs
    r = run_subprocess("explain", "default/huge", *args, "-o", "json")
    assert r.returncode == 2
    assert "no pod 'default/huge' in the input" in r.stderr
    _assert_warned(r.stderr, bad_file, expected)
