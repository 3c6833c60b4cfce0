"""The first line of ``explain`` is the engine's verdict with its number and next step (issue 25,
point 13), through the real CLI; and NO_COLOR takes the colour away, never the table layout
(point 14)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

from tests.helpers import FIXTURES, ROOT, run_subprocess

CLUSTER = str(FIXTURES / "cluster")
EXTRA = str(ROOT / "tests" / "kueue" / "data" / "explain-extra.yaml")
YK = ["-f", str(FIXTURES / "yunikorn" / "clean" / "queues.yaml"), "-f", str(FIXTURES / "yunikorn" / "clean" / "state.yaml")]

# A ClusterQueue of 8 cpu without a cohort: a workload asking 12 can never fit.
SMALL = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq-a}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: 8}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: main, namespace: team-a}
spec: {clusterQueue: cq-a}
"""

BIG = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: big, namespace: team-a}
spec:
  queueName: main
  podSets:
  - name: main
    count: 3
    template:
      spec:
        containers: [{name: c, resources: {requests: {cpu: "4"}}}]
"""

# A Workload a Job owns, queued to a LocalQueue that does not exist (as kubectl get prints it).
JOB_OWNED = """\
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: job-train-42-3b9f1
  namespace: team-a
  ownerReferences:
  - {apiVersion: batch/v1, kind: Job, name: train-42, uid: u-1, controller: true}
spec:
  queueName: x
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers: [{name: c, resources: {requests: {cpu: "1"}}}]
"""

# The same queue mistake made by a Job not yet submitted (quotactl derives its Workload).
JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: train-7
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: x}
spec:
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, resources: {requests: {cpu: "1"}}}]
"""


def first_line(*args) -> str:
    r = run_subprocess("explain", *args)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout.splitlines()[0]


def test_exceeds_max_quota_says_by_how_much(tmp_path):
    (tmp_path / "cluster.yaml").write_text(SMALL)
    (tmp_path / "big.yaml").write_text(BIG)
    line = first_line("team-a/big", "-f", tmp_path / "cluster.yaml", "-f", tmp_path / "big.yaml")
    assert line == "team-a/big: Pending — needs 4 more cpu than ClusterQueue cq-a can ever have (max 8)"


def test_preemption_names_the_victim_and_its_reason():
    line = first_line("ml/eval-llm", "-f", CLUSTER)
    assert line == "ml/eval-llm: Pending — preempting ml/finetune-llm (InClusterQueue) admits it"


def test_admitted_says_where_and_on_which_flavors():
    assert first_line("ml/finetune-llm", "-f", CLUSTER) == \
        "ml/finetune-llm: Admitted in team-ml (flavors a100, on-demand)"


def test_fits_now_and_waiting_for_quota_with_who_holds_it():
    assert first_line("web/web-reindex", "-f", CLUSTER, "-f", EXTRA) == \
        "web/web-reindex: Pending — fits now: Kueue admits it in the next cycle"
    line = first_line("team-b/spark-report", "-f", CLUSTER, "-f", EXTRA)
    assert line.startswith("team-b/spark-report: Pending — waiting for 24Gi more memory in flavor on-demand, "
                           "held by team-b/etl-nightly (20Gi memory)")


def test_misconfigured_gives_the_fix_and_a_job_author_the_label(tmp_path):
    line = first_line("team-a/orphan", "-f", CLUSTER, "-f", EXTRA)
    assert line.startswith("team-a/orphan: Pending — no LocalQueue 'team-x' in namespace team-a")
    assert line.endswith(": set spec.queueName to an existing LocalQueue or create LocalQueue team-a/team-x")
    (tmp_path / "wl.yaml").write_text(JOB_OWNED)
    line = first_line("team-a/job-train-42-3b9f1", "-f", CLUSTER, "-f", tmp_path / "wl.yaml")
    assert line.endswith(": set the Job's kueue.x-k8s.io/queue-name label to an existing LocalQueue or create "
                         "LocalQueue team-a/x")
    assert "spec.queueName" not in line
    (tmp_path / "job.yaml").write_text(JOB)
    line = first_line("job/team-a/train-7", "-f", CLUSTER, "-f", tmp_path / "job.yaml")
    assert "set the Job's kueue.x-k8s.io/queue-name label" in line and "spec.queueName" not in line


def test_no_unexplained_symbols():
    out = run_subprocess("explain", "team-b/spark-report", "-f", CLUSTER, "-f", EXTRA).stdout
    assert " b=" not in out and "←" not in out and "(+" not in out
    assert "borrows from cohort org; plus 4Gi memory for earlier pod sets" in out


def test_explain_all_rows_and_eta_and_yunikorn_start_with_the_verdict():
    out = run_subprocess("explain", "--all", "-f", CLUSTER).stdout
    row = next(line for line in out.splitlines() if line.startswith("ml/eval-llm "))
    assert "preempting ml/finetune-llm (InClusterQueue) admits it" in row
    eta = run_subprocess("explain", "ml/eval-llm", "-f", CLUSTER, "--eta").stdout
    assert eta.splitlines()[0] == "ml/eval-llm: Pending — preempting ml/finetune-llm (InClusterQueue) admits it"
    yk = run_subprocess("explain", "analytics/report-gen-1", *YK).stdout
    assert yk.splitlines()[0] == ("analytics/report-gen-1: Pending — preempting batch/etl-6 (root.batch) on node "
                                  "cpu-1 admits it")


def _on_a_terminal(*args: str, env: dict) -> str:
    """The command's output as a terminal (a pty) receives it."""
    main, child = pty.openpty()
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}  # the test session sets it
    proc = subprocess.Popen([sys.executable, "-m", "quotactl", *args], stdout=child, stderr=child, cwd=ROOT,
                            env={**base, **env})
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode()


def test_no_color_keeps_the_table_layout_on_a_terminal():
    env = {"COLUMNS": "200", "TERM": "xterm"}
    coloured = _on_a_terminal("explain", "--all", "-f", CLUSTER, env=env)
    plain_env = {**env, "NO_COLOR": "1"}
    no_color = _on_a_terminal("explain", "--all", "-f", CLUSTER, env=plain_env)
    assert "\x1b[" in coloured and "\x1b[" not in no_color
    assert "─" * 20 in no_color  # the table's header rule: the layout of a terminal, not the piped one
    assert [line.rstrip() for line in no_color.splitlines()] == \
        [line.rstrip() for line in _strip_ansi(coloured).splitlines()]
    piped = run_subprocess("explain", "--all", "-f", CLUSTER, env={"COLUMNS": "200"}).stdout
    assert "─" not in piped and "\x1b[" not in piped


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)
