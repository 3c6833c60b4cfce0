"""Time ``quotactl preempt`` (YuniKorn) for one pending pod in a big generated cluster, written as
``kubectl get nodes,pods -A -o json`` prints it: 10 parents x 10 leaves, N nodes with 25 pods each.

Reports, best of N runs: json.load of the state (the bare parse), the in-process engine
(build the cluster + explain + JSON), and the real CLI as a subprocess.

    .venv/bin/python benchmarks/yunikorn_preempt_large.py
    .venv/bin/python benchmarks/yunikorn_preempt_large.py --nodes 400 --runs 3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def generate(directory: Path, nodes: int) -> tuple[Path, Path]:
    queues = ["partitions:", "- name: default", "  queues:", "  - name: root", "    submitacl: '*'", "    queues:"]
    for p in range(10):
        queues += [f"    - name: p{p}", "      queues:"]
        for leaf in range(10):
            queues += [f"      - name: l{leaf}", "        resources: {guaranteed: {vcore: 8}}"]
    qpath = directory / "queues.yaml"
    qpath.write_text("\n".join(queues) + "\n")
    items = []
    for i in range(nodes):
        alloc = {"cpu": "26", "memory": "64Gi", "pods": "110"}
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
                      "status": {"allocatable": alloc, "capacity": alloc}})
        for j in range(25):
            leaf = 1 + (i * 25 + j) % 99
            items.append({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": f"p-{i}-{j}", "namespace": "batch", "uid": f"u-{i}-{j}",
                             "creationTimestamp": f"2026-07-01T{(i * 25 + j) // 3600 % 24:02d}:"
                                                  f"{(i * 25 + j) // 60 % 60:02d}:{(i * 25 + j) % 60:02d}Z",
                             "labels": {"applicationId": f"app-{j % 50}", "queue": f"root.p{leaf // 10}.l{leaf % 10}"}},
                "spec": {"schedulerName": "yunikorn", "priority": 0, "nodeName": f"node-{i}",
                         "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
                "status": {"phase": "Running"}})
    items.append({"apiVersion": "v1", "kind": "Pod",
                  "metadata": {"name": "ask", "namespace": "batch", "uid": "ask", "creationTimestamp": "2026-07-02T00:00:00Z",
                               "labels": {"applicationId": "app-ask", "queue": "root.p0.l0"}},
                  "spec": {"schedulerName": "yunikorn", "priority": 10,
                           "containers": [{"name": "c", "resources": {"requests": {"cpu": "4", "memory": "1Gi"}}}]},
                  "status": {"phase": "Pending"}})
    spath = directory / "state.json"
    spath.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    return qpath, spath


def best(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    from quotactl.cli.yunikorn_cmds import build
    from quotactl.load.objects import load
    from quotactl.report.yunikorn_json import render_preempt
    from quotactl.yunikorn.explain import explain_pod, find_pod

    with tempfile.TemporaryDirectory() as tmp:
        q, s = generate(Path(tmp), a.nodes)
        size = s.stat().st_size / 2**20
        parse = best(lambda: json.loads(s.read_text()), a.runs)

        def engine():
            cluster = build(load([str(q), str(s)], fast_json=True)).cluster
            render_preempt(explain_pod(cluster, find_pod(cluster, "batch/ask").task))

        inproc = best(engine, a.runs)
        cmd = [sys.executable, "-m", "quotactl", "preempt", "batch/ask", "-f", str(q), "-f", str(s), "-o", "json"]
        cli = best(lambda: subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT), a.runs)
        print(f"{a.nodes} nodes, {a.nodes * 25 + 1} pods, {size:.1f} MiB JSON")
        print(f"json.load {parse:.2f}s; load + cluster + preempt in-process {inproc:.2f}s; CLI subprocess {cli:.2f}s")


if __name__ == "__main__":
    main()
