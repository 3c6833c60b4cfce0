"""Time ``quotactl schedule`` to the fixpoint on a big generated cluster.

Default: 1,000 ClusterQueues in 100 cohorts, 10,000 admitted + 10,000 pending workloads
(target <= 3 s for the engine); ``--scale 10`` multiplies everything by ten.  ``--sweep`` runs
several scales and prints the growth ratio (wall clock and CPU time) against n log n.

    .venv/bin/python benchmarks/schedule_fixpoint.py
    .venv/bin/python benchmarks/schedule_fixpoint.py --sweep 0.25,0.5,1
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

V = "kueue.x-k8s.io/v1beta1"


def generate(n_cqs: int, n_cohorts: int, n_admitted: int, n_pending: int, seed: int = 11) -> list[dict]:
    rnd = random.Random(seed)
    out: list[dict] = [{"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": f}, "spec": {}}
                       for f in ("on-demand", "spot")]
    per_cq_admitted = max(1, n_admitted // n_cqs)
    per_cq_pending = max(1, n_pending // n_cqs)
    uid = 0
    for i in range(n_cqs):
        name = f"cq-{i:05d}"
        nominal = per_cq_admitted * 2 + rnd.randint(0, 4)
        out.append({"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": name}, "spec": {
            "cohort": f"co-{i % n_cohorts:04d}", "namespaceSelector": {},
            "queueingStrategy": "StrictFIFO" if i % 7 == 0 else "BestEffortFIFO",
            "preemption": {"withinClusterQueue": "LowerPriority", "reclaimWithinCohort": "Any" if i % 3 else "Never"},
            "resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
                {"name": "on-demand", "resources": [{"name": "cpu", "nominalQuota": str(nominal)},
                                                    {"name": "memory", "nominalQuota": f"{nominal * 4}Gi"}]},
                {"name": "spot", "resources": [{"name": "cpu", "nominalQuota": str(nominal // 2)},
                                               {"name": "memory", "nominalQuota": f"{nominal * 2}Gi"}]}]}]}})
        out.append({"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": "lq", "namespace": name},
                    "spec": {"clusterQueue": name}})
        for j in range(per_cq_admitted):
            uid += 1
            cpu = rnd.randint(1, 2)
            t = f"2026-01-01T{j % 24:02d}:{uid % 60:02d}:00Z"
            out.append({"apiVersion": V, "kind": "Workload", "metadata": {
                "name": f"a-{j}", "namespace": name, "uid": f"{uid:08x}", "creationTimestamp": t},
                "spec": {"queueName": "lq", "priority": rnd.choice((0, 10, 100)), "podSets": [{
                    "name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {
                        "requests": {"cpu": str(cpu), "memory": f"{cpu}Gi"}}}]}}}]},
                "status": {"admission": {"clusterQueue": name, "podSetAssignments": [{
                    "name": "main", "count": 1, "flavors": {"cpu": "on-demand", "memory": "on-demand"},
                    "resourceUsage": {"cpu": str(cpu), "memory": f"{cpu}Gi"}}]},
                    "conditions": [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                                    "message": "", "lastTransitionTime": t}]}})
        for j in range(per_cq_pending):
            uid += 1
            cpu = rnd.choice((1, 1, 2, 3, 6))
            out.append({"apiVersion": V, "kind": "Workload", "metadata": {
                "name": f"p-{j}", "namespace": name, "uid": f"{uid:08x}",
                "creationTimestamp": f"2026-01-02T{j % 24:02d}:{uid % 60:02d}:00Z"},
                "spec": {"queueName": "lq", "priority": rnd.choice((0, 10, 100, 1000)), "podSets": [{
                    "name": "main", "count": 1, "template": {"spec": {"containers": [{"name": "c", "resources": {
                        "requests": {"cpu": str(cpu), "memory": f"{cpu}Gi"}}}]}}}]}})
    return out


def run(scale: float) -> dict:
    import json
    import tempfile

    from quotactl.kueue.options import engine_options
    from quotactl.kueue.scheduler import schedule
    from quotactl.load.objects import load
    from quotactl.model.kueue import build_cluster

    n_cqs, n_cohorts = int(1000 * scale), max(1, int(100 * scale))
    n = int(10_000 * scale)
    objs = generate(n_cqs, n_cohorts, n, n)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": objs}, f)
        path = f.name
    t0 = time.perf_counter()
    cluster = build_cluster(load([path], fast_json=True).objects)
    options = engine_options(cluster)
    t1, c1 = time.perf_counter(), time.process_time()
    r = schedule(cluster, options)
    t2, c2 = time.perf_counter(), time.process_time()
    Path(path).unlink()
    return {"scale": scale, "workloads": 2 * n, "clusterQueues": n_cqs, "load_s": round(t1 - t0, 2),
            "schedule_s": round(t2 - t1, 2), "schedule_cpu_s": round(c2 - c1, 2), "cycles": r.cycles_run, "admitted": len(r.admitted),
            "preempted": len(r.preempted), "converged": r.converged}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--sweep", default=None, help="comma-separated scales")
    a = ap.parse_args()
    scales = [float(s) for s in a.sweep.split(",")] if a.sweep else [a.scale]
    rows = [run(s) for s in scales]
    for r in rows:
        print(r)
    if len(rows) > 1:
        base = rows[0]
        for r in rows[1:]:
            n0, n1 = base["workloads"], r["workloads"]
            nlogn = (n1 * math.log(n1)) / (n0 * math.log(n0))
            print(f"x{n1 / n0:.1f} workloads: schedule time x{r['schedule_s'] / max(base['schedule_s'], 1e-9):.2f},"
                  f" CPU time x{r['schedule_cpu_s'] / max(base['schedule_cpu_s'], 1e-9):.2f}"
                  f" (n log n would be x{nlogn:.2f})")


if __name__ == "__main__":
    main()
