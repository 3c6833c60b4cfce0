"""Time one ``quotactl preempt`` decision in a cohort holding 10,000 admitted workloads.

One flat cohort: a ``pool`` ClusterQueue that only lends, ``--cqs`` team ClusterQueues that
borrow from it, every admitted workload 1 cpu / 2Gi (so every team borrows), and an ``urgent``
ClusterQueue whose pending workload needs ``--request`` cpu that only reclaiming from the
teams can free: Kueue's search walks (and removes) hundreds of candidates, then adds back.
Both the classical search and fair sharing (``--fair-sharing``: shares computed at every step)
are timed.

Reports, best of N runs:
  * the victim search alone, as the scheduler runs it (``get_targets``, no tracing);
  * the whole decision as ``preempt`` computes it (assignment with the oracle, traced search,
    resulting usage) plus JSON rendering, model already built;
  * the real CLI as a subprocess (load + model + decision + JSON, incl. interpreter start-up).

    .venv/bin/python benchmarks/preempt_large_cohort.py
    .venv/bin/python benchmarks/preempt_large_cohort.py --workloads 10000 --cqs 20 --request 500 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

V = "kueue.x-k8s.io/v1beta2"


def _cq(name: str, cpu: int, reclaim: str = "Any", weight: str | None = None) -> dict:
    spec: dict = {
        "cohortName": "big", "namespaceSelector": {},
        "preemption": {"withinClusterQueue": "LowerPriority", "reclaimWithinCohort": reclaim},
        "resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [
            {"name": "default", "resources": [{"name": "cpu", "nominalQuota": str(cpu)},
                                              {"name": "memory", "nominalQuota": f"{cpu * 2}Gi"}]}]}],
    }
    if weight:
        spec["fairSharing"] = {"weight": weight}
    return {"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": name}, "spec": spec}


def generate(n_workloads: int, n_cqs: int, request: int, fair: bool, seed: int = 11) -> tuple[dict, str]:
    rnd = random.Random(seed)
    items: list[dict] = [{"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": "default"}, "spec": {}}]
    if fair:
        items.append({"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration",
                      "fairSharing": {"enable": True}})
    team_nominal = 100
    teams = [f"team-{i:02d}" for i in range(n_cqs)]
    # the pool lends exactly what the teams borrow: the cohort is full
    # classical: urgent reclaims its own nominal quota; fair sharing: urgent has none and must win
    # every victim through the share strategies (S2-a / S2-b at each step)
    urgent_nominal = 0 if fair else request
    pool = n_workloads - team_nominal * n_cqs - urgent_nominal
    items.append(_cq("pool", pool, reclaim="Never"))
    items.append(_cq("urgent", urgent_nominal, weight="4" if fair else None))
    for t in teams:
        items.append(_cq(t, team_nominal, weight=rnd.choice(["1", "2"]) if fair else None))
    for q in ["urgent", *teams]:
        items.append({"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": "main", "namespace": q},
                      "spec": {"clusterQueue": q}})
    for j in range(n_workloads):
        t = teams[j % n_cqs]
        ts = f"2026-03-01T{j // 3600 % 24:02d}:{j // 60 % 60:02d}:{j % 60:02d}Z"
        items.append({
            "apiVersion": V, "kind": "Workload",
            "metadata": {"name": f"job-{j:05d}", "namespace": t, "uid": f"uid-{j:05d}", "creationTimestamp": ts},
            "spec": {"queueName": "main", "priority": rnd.choice([0, 10, 100]), "podSets": [{
                "name": "main", "count": 1, "template": {"spec": {"containers": [{
                    "name": "c", "resources": {"requests": {"cpu": "1", "memory": "2Gi"}}}]}}}]},
            "status": {
                "admission": {"clusterQueue": t, "podSetAssignments": [{
                    "name": "main", "count": 1, "flavors": {"cpu": "default", "memory": "default"},
                    "resourceUsage": {"cpu": "1", "memory": "2Gi"}}]},
                "conditions": [
                    {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "",
                     "lastTransitionTime": ts},
                    {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "",
                     "lastTransitionTime": ts}]},
        })
    items.append({
        "apiVersion": V, "kind": "Workload",
        "metadata": {"name": "incident-response", "namespace": "urgent", "uid": "uid-urgent",
                     "creationTimestamp": "2026-03-02T09:00:00Z"},
        "spec": {"queueName": "main", "priority": 1000, "podSets": [{
            "name": "main", "count": request, "template": {"spec": {"containers": [{
                "name": "c", "resources": {"requests": {"cpu": "1", "memory": "2Gi"}}}]}}}]},
    })
    return {"apiVersion": "v1", "kind": "List", "items": items}, "urgent/incident-response"


def best_and_median(samples: list[float]) -> str:
    return f"best {min(samples):.3f}s, median {statistics.median(samples):.3f}s"


def run(a, fair: bool) -> None:
    from quotactl.kueue.assign import initial_assignment, targets_for
    from quotactl.kueue.nomination import make_assigner
    from quotactl.kueue.options import engine_options
    from quotactl.kueue.preempt_decision import decide
    from quotactl.kueue.quota import build_snapshot
    from quotactl.kueue.scope import scoped_cluster
    from quotactl.load.objects import load
    from quotactl.model.kueue_input import KueueInput
    from quotactl.report import preempt_json

    doc, target = generate(a.workloads, a.cqs, a.request, fair)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "snapshot.json"
        path.write_text(json.dumps(doc))
        size = path.stat().st_size
        print(f"\n== {'fair sharing' if fair else 'classical'}: {a.workloads} admitted workloads in one cohort "
              f"({a.cqs} borrowing ClusterQueues), {size / 2**20:.1f} MiB; preempt {target} ({a.request} cpu)")
        loaded = load([str(path)], fast_json=True)
        cluster = scoped_cluster(KueueInput(loaded.objects), target)
        options = engine_options(cluster)
        wl = cluster.workloads[target]

        search, whole = [], []
        out = ""
        n_victims = 0
        for _ in range(a.runs):
            snapshot = build_snapshot(cluster, options)
            assigner = make_assigner(cluster, snapshot, wl, snapshot.cluster_queues["urgent"])
            assignment = assigner.assign()
            t0 = time.perf_counter()
            targets = targets_for(assigner, assignment)
            search.append(time.perf_counter() - t0)
            n_victims = len(targets)

            snapshot = build_snapshot(cluster, options)
            t0 = time.perf_counter()
            out = preempt_json.render(decide(cluster, snapshot, wl))
            whole.append(time.perf_counter() - t0)
        res = json.loads(out)
        steps = sum(len(at["steps"]) for at in res["attempts"])
        print(f"victim search (scheduler path, get_targets):  {best_and_median(search)}  ({n_victims} victims)")
        print(f"preempt decision + JSON (traced, {steps} steps):  {best_and_median(whole)}")
        print(f"  result: {res['representativeMode']}, {len(res['victims'])} victims, "
              f"reasons {sorted({v['reason'] for v in res['victims']})}")
        assert len(res["victims"]) == n_victims
        _ = initial_assignment  # the decision runs it (oracle included)

        if not a.skip_cli:
            env = {**os.environ, "NO_COLOR": "1", "QUOTACTL_MAX_FILE_SIZE": str(size + 1)}
            took = []
            for _ in range(a.runs):
                t0 = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "quotactl", "preempt", target, "-f", str(path),
                                       "-o", "json"], capture_output=True, text=True, cwd=ROOT, env=env)
                took.append(time.perf_counter() - t0)
                assert proc.returncode == 0, proc.stderr
            print(f"CLI subprocess (load + model + decision + JSON): {best_and_median(took)}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workloads", type=int, default=10_000)
    ap.add_argument("--cqs", type=int, default=20)
    ap.add_argument("--request", type=int, default=500, help="cpu the pending workload needs (1 per pod)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--only", choices=["classical", "fair"])
    a = ap.parse_args()
    if a.only != "fair":
        run(a, fair=False)
    if a.only != "classical":
        run(a, fair=True)


if __name__ == "__main__":
    main()
