"""Time ``quotactl explain`` on a big topology-aware snapshot (JSON, as ``kubectl get -o json``
prints it): a 3-level Topology (block / rack / hostname) of 5,000 Nodes, 100,000 running Pods
(non-TAS usage on every node) and 1,000 pending TAS workloads (rack required, block preferred,
unconstrained) in 10 ClusterQueues.

Reports, best of N runs, each as a ratio to a floor measured in the same run: ``json.load`` of
the same file (the bare parse).
  * ``explain WORKLOAD -o json`` through the CLI (target <= 1.5x the floor, issue 27);
  * ``explain --all -o json`` through the CLI (target <= 3x the floor).
The interpreter's start-up is measured too (``python -c pass``) and shown apart.

    .venv/bin/python benchmarks/tas_explain.py
    .venv/bin/python benchmarks/tas_explain.py --nodes 500 --pods 10000 --workloads 100 --runs 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
V = "kueue.x-k8s.io/v1beta2"
BLOCK, RACK, HOST = "cloud.example.com/block", "cloud.example.com/rack", "kubernetes.io/hostname"
NODES_PER_RACK, RACKS_PER_BLOCK = 50, 10
NODE_CPU, NODE_GPU = 64, 8


def _node(i: int) -> dict:
    rack, block = i // NODES_PER_RACK, i // (NODES_PER_RACK * RACKS_PER_BLOCK)
    cap = {"cpu": str(NODE_CPU), "memory": "512Gi", "nvidia.com/gpu": str(NODE_GPU), "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": f"node-{i:05d}", "labels": {
                BLOCK: f"b{block:02d}", RACK: f"r{rack:03d}", HOST: f"node-{i:05d}", "pool": "gpu"}},
            "spec": {}, "status": {"allocatable": cap, "capacity": cap,
                                   "conditions": [{"type": "Ready", "status": "True"}]}}


def _pod(j: int, node: str, rnd: random.Random) -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"svc-{j:06d}", "namespace": "services", "uid": f"pod-{j:06d}"},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "registry.example.com/svc:1",
                                                       "resources": {"requests": {
                                                           "cpu": str(rnd.choice((1, 2))), "memory": "2Gi"}}}]},
            "status": {"phase": "Running"}}


def _workload(k: int, rnd: random.Random) -> dict:
    pods, gpus = rnd.choice((4, 8, 16)), rnd.choice((1, 2, 4, 8))
    request = rnd.choice(({"required": RACK}, {"preferred": BLOCK}, {"preferred": RACK}, {"unconstrained": True}))
    return {"apiVersion": V, "kind": "Workload",
            "metadata": {"name": f"train-{k:04d}", "namespace": f"team-{k % 10}", "uid": f"wl-{k:04d}",
                         "creationTimestamp": f"2026-03-01T{k // 3600 % 24:02d}:{k // 60 % 60:02d}:{k % 60:02d}Z"},
            "spec": {"queueName": "main", "priority": rnd.choice((0, 100)), "podSets": [{
                "name": "workers", "count": pods, "topologyRequest": request,
                "template": {"spec": {"containers": [{"name": "c", "image": "registry.example.com/train:1",
                                                      "resources": {"requests": {
                                                          "cpu": "4", "memory": "16Gi",
                                                          "nvidia.com/gpu": str(gpus)}}}]}}}]}}


def generate(n_nodes: int, n_pods: int, n_workloads: int, seed: int = 27) -> dict:
    rnd = random.Random(seed)
    items: list[dict] = [
        {"apiVersion": V, "kind": "Topology", "metadata": {"name": "gpu-topology"},
         "spec": {"levels": [{"nodeLabel": BLOCK}, {"nodeLabel": RACK}, {"nodeLabel": HOST}]}},
        {"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": "gpu"},
         "spec": {"nodeLabels": {"pool": "gpu"}, "topologyName": "gpu-topology"}}]
    for t in range(10):
        quota = {"cpu": n_nodes * NODE_CPU // 10, "memory": f"{n_nodes * 512 // 10}Gi",
                 "nvidia.com/gpu": n_nodes * NODE_GPU // 10}
        items.append({"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": f"team-{t}"}, "spec": {
            "cohortName": "all", "namespaceSelector": {},
            "resourceGroups": [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"], "flavors": [
                {"name": "gpu", "resources": [{"name": r, "nominalQuota": str(q)} for r, q in quota.items()]}]}]}})
        items.append({"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": "main", "namespace": f"team-{t}"},
                      "spec": {"clusterQueue": f"team-{t}"}})
    items += [_node(i) for i in range(n_nodes)]
    items += [_pod(j, f"node-{j % n_nodes:05d}", rnd) for j in range(n_pods)]
    items += [_workload(k, rnd) for k in range(n_workloads)]
    return {"apiVersion": "v1", "kind": "List", "items": items}


def best(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def cli(path: Path, env: dict, *args: str) -> None:
    p = subprocess.run([sys.executable, "-m", "quotactl", "explain", *args, "-f", str(path), "-o", "json"],
                       capture_output=True, text=True, cwd=ROOT, env=env)
    if p.returncode != 0:
        raise SystemExit(f"quotactl explain {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()[-300:]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--pods", type=int, default=100_000)
    ap.add_argument("--workloads", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tas-snapshot.json"
        path.write_text(json.dumps(generate(a.nodes, a.pods, a.workloads)))
        size = path.stat().st_size
        print(f"snapshot: {a.nodes} nodes, {a.pods} pods, {a.workloads} pending TAS workloads, "
              f"{size / 2**20:.1f} MiB")
        env = {**os.environ, "NO_COLOR": "1", "QUOTACTL_MAX_FILE_SIZE": str(size + 1)}

        def parse() -> None:
            with open(path) as f:
                json.load(f)

        floor = best(parse, a.runs)
        startup = best(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), a.runs)
        one = best(lambda: cli(path, env, "team-0/train-0000"), a.runs)
        every = best(lambda: cli(path, env, "--all"), a.runs)
        print(f"json.load (floor):          {floor:.3f}s")
        print(f"python start-up:            {startup:.3f}s")
        print(f"explain one workload (CLI): {one:.3f}s = {one / floor:.2f}x the floor (target <= 1.5x)")
        print(f"explain --all (CLI):        {every:.3f}s = {every / floor:.2f}x the floor (target <= 3x)")


if __name__ == "__main__":
    main()
