"""Workloads of the wrong shape, through every command as a real process: ``lint`` reports the
schema error, the engine commands warn on stderr with file:line, read what they can and finish;
never a traceback (exit codes 0/1/2 only)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_subprocess

HEADER = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: "4"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: default}
spec: {clusterQueue: cq}
"""

WORKLOAD = """\
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {{name: {name}, namespace: default}}
spec:
  queueName: {queue}
  podSets: {pod_sets}
"""


def _pod_sets(count="1", template=None, container='{name: c, resources: {requests: {cpu: "1"}}}') -> str:
    template = template or f"{{spec: {{containers: [{container}]}}}}"
    return f"[{{name: main, count: {count}, template: {template}}}]"


# name -> (spec.queueName, spec.podSets): each breaks one field the model reads
MALFORMED = {
    "container-int": ("lq", _pod_sets(container="5")),
    "podsets-number": ("lq", "3"),
    "template-string": ("lq", _pod_sets(template='"hello"')),
    "queuename-map": ("{a: b}", _pod_sets()),
    "resources-list": ("lq", _pod_sets(container="{name: c, resources: [1, 2]}")),
    "requests-string": ("lq", _pod_sets(container='{name: c, resources: {requests: "lots"}}')),
    "count-string": ("lq", _pod_sets(count='"three"')),
    "count-huge": ("lq", _pod_sets(count=str(10**30))),
    "quantity-huge": ("lq", _pod_sets(container='{name: c, resources: {requests: {cpu: "1e99999999999"}}}')),  # exponent past int32: ParseQuantity refuses it (1e999999 is a valid, saturated quantity)
}


@pytest.fixture(scope="module")
def input_file(tmp_path_factory):
    text = HEADER + WORKLOAD.format(name="good", queue="lq", pod_sets=_pod_sets())
    for name, (queue, pod_sets) in MALFORMED.items():
        text += WORKLOAD.format(name=name, queue=queue, pod_sets=pod_sets)
    path = tmp_path_factory.mktemp("malformed") / "input.yaml"
    path.write_text(text)
    return path


def _line_of(path, name: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if f"name: {name}," in line)


def _assert_warned_each(path, stderr: str) -> None:
    """One warning per malformed Workload, pointing inside that object."""
    lines = [ln for ln in stderr.splitlines() if ": warning KQ0" in ln]
    starts = sorted(_line_of(path, n) for n in MALFORMED)
    for name in MALFORMED:
        first = _line_of(path, name)
        end = min((s for s in starts if s > first), default=10**9)
        hits = [ln for ln in lines if ln.startswith(f"{path}:")
                and first <= int(ln.split(":")[1]) < end and f"Workload/default/{name}" in ln]
        assert hits, f"no warning for {name}: {stderr}"


def _assert_clean_exit(r, allowed=(0, 1)) -> None:
    assert r.returncode in allowed, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr


@pytest.mark.parametrize("command", [
    ("schedule",), ("shares",), ("explain", "--all"), ("explain", "default/good"), ("preempt", "default/good"),
], ids=lambda c: " ".join(c))
def test_engine_commands_warn_and_finish(input_file, command):
    r = run_subprocess(*command, "-f", input_file, "--output", "json")
    _assert_clean_exit(r)
    json.loads(r.stdout)
    _assert_warned_each(input_file, r.stderr)


def test_diff_warns_and_finishes(input_file):
    r = run_subprocess("diff", "--base", input_file, "--head", input_file, "--output", "json")
    _assert_clean_exit(r)
    json.loads(r.stdout)
    assert all(f"Workload/default/{name}" in r.stderr for name in MALFORMED), r.stderr


def test_schedule_still_admits_the_well_formed_workload(input_file):
    r = run_subprocess("schedule", "-f", input_file, "--output", "json")
    admitted = {a["workload"] for a in json.loads(r.stdout)["admitted"]}
    assert "default/good" in admitted


@pytest.mark.parametrize(("command", "name"), [("explain", n) for n in sorted(MALFORMED)]
                         + [("preempt", "queuename-map"), ("preempt", "podsets-number")])
def test_explain_and_preempt_of_the_malformed_workload_itself(input_file, command, name):
    # explain scopes the model to the workload's tree before building it: the malformed fields
    # are read there too
    r = run_subprocess(command, f"default/{name}", "-f", input_file, "--output", "json")
    _assert_clean_exit(r, allowed=(0, 1, 2))
    assert f"Workload/default/{name}" in r.stderr


def test_lint_reports_each_schema_error(input_file):
    r = run_subprocess("lint", input_file, "--output", "json")
    _assert_clean_exit(r)
    objects = {d["object"] for d in json.loads(r.stdout)["diagnostics"]
               if d["severity"] == "error" and d["code"].startswith("KQ0")}
    assert {f"Workload/default/{n}" for n in MALFORMED} <= objects
