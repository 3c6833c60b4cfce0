"""Time ``quotactl explain`` for one workload in a big generated snapshot (JSON, as
``kubectl get ... -o json`` prints it): 1,000 ClusterQueues, 100 cohorts, 50,000 workloads.

Reports, best of N runs:
  * json.load of the file (the bare parse);
  * the whole explain in-process: load (quotactl's loader) -> model -> snapshot -> explain -> JSON;
  * the explain step alone (snapshot + explanation + rendering, model already built);
  * the real CLI as a subprocess (adds interpreter start-up and imports).
Targets: total <= 3x the bare parse; explain itself <= 1 s.

    .venv/bin/python benchmarks/explain_large_snapshot.py
    .venv/bin/python benchmarks/explain_large_snapshot.py --cqs 1000 --cohorts 100 --workloads 50000 --runs 3
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

FLAVORS = ("on-demand", "spot", "a100")


def generate(n_cqs: int, n_cohorts: int, n_workloads: int, seed: int = 7) -> tuple[dict, str]:
    rnd = random.Random(seed)
    items: list[dict] = [{
        "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor",
        "metadata": {"name": f}, "spec": {"nodeLabels": {"cloud.example.com/pool": f}},
    } for f in FLAVORS]
    roots = max(1, n_cohorts // 10)
    cohorts = []
    for i in range(n_cohorts):
        name = f"cohort-{i:03d}"
        spec: dict = {}
        if i >= roots:
            spec["parentName"] = f"cohort-{i % roots:03d}"
            if i % 3 == 0:
                spec["resourceGroups"] = [{"coveredResources": ["cpu", "memory"], "flavors": [
                    {"name": "on-demand", "resources": [{"name": "cpu", "nominalQuota": "16"},
                                                        {"name": "memory", "nominalQuota": "64Gi"}]}]}]
        cohorts.append(name)
        items.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {"name": name},
                      "spec": spec})
    leaf_cohorts = cohorts[roots:] or cohorts
    cqs = []
    for i in range(n_cqs):
        name = f"team-{i:04d}"
        cqs.append(name)
        items.append({
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": name},
            "spec": {
                "cohortName": leaf_cohorts[i % len(leaf_cohorts)],
                "namespaceSelector": {},
                "preemption": {"withinClusterQueue": "LowerPriority", "reclaimWithinCohort": "Any"},
                "resourceGroups": [
                    {"coveredResources": ["cpu", "memory"], "flavors": [
                        {"name": "on-demand", "resources": [
                            {"name": "cpu", "nominalQuota": str(rnd.choice([8, 16, 32])), "borrowingLimit": "8"},
                            {"name": "memory", "nominalQuota": f"{rnd.choice([32, 64, 128])}Gi"}]},
                        {"name": "spot", "resources": [
                            {"name": "cpu", "nominalQuota": "8"}, {"name": "memory", "nominalQuota": "32Gi"}]}]},
                    {"coveredResources": ["nvidia.com/gpu"], "flavors": [
                        {"name": "a100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": "4"}]}]},
                ],
            },
        })
        items.append({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
                      "metadata": {"name": "main", "namespace": f"ns-{i:04d}"}, "spec": {"clusterQueue": name}})
    target = ""
    for j in range(n_workloads):
        i = rnd.randrange(n_cqs)
        ns, cq = f"ns-{i:04d}", cqs[i]
        cpu, mem, count = rnd.choice([1, 2, 4]), rnd.choice([2, 4, 8]), rnd.choice([1, 1, 2])
        admitted = j % 10 != 0
        flavor = rnd.choice(["on-demand", "spot"])
        wl: dict = {
            "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
            "metadata": {"name": f"job-{j:05d}", "namespace": ns, "uid": f"uid-{j:05d}",
                         "creationTimestamp": f"2026-03-01T{j // 3600 % 24:02d}:{j // 60 % 60:02d}:{j % 60:02d}Z"},
            "spec": {"queueName": "main", "priority": rnd.choice([0, 10, 100]), "podSets": [{
                "name": "main", "count": count, "template": {"spec": {"containers": [{
                    "name": "c", "image": "registry.example.com/train:1",
                    "resources": {"requests": {"cpu": str(cpu), "memory": f"{mem}Gi"}}}]}}}]},
        }
        if admitted:
            wl["status"] = {
                "admission": {"clusterQueue": cq, "podSetAssignments": [{
                    "name": "main", "count": count, "flavors": {"cpu": flavor, "memory": flavor},
                    "resourceUsage": {"cpu": str(cpu * count), "memory": f"{mem * count}Gi"}}]},
                "conditions": [
                    {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "",
                     "lastTransitionTime": "2026-03-01T12:00:00Z"},
                    {"type": "Admitted", "status": "True", "reason": "Admitted", "message": "",
                     "lastTransitionTime": "2026-03-01T12:00:00Z"}]}
        elif not target:
            target = f"{ns}/job-{j:05d}"
            wl["spec"]["podSets"][0]["count"] = 8  # big enough to need preemption or borrowing
        items.append(wl)
    return {"apiVersion": "v1", "kind": "List", "items": items}, target


def best_and_median(samples: list[float]) -> str:
    return f"best {min(samples):.3f}s, median {statistics.median(samples):.3f}s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cqs", type=int, default=1000)
    ap.add_argument("--cohorts", type=int, default=100)
    ap.add_argument("--workloads", type=int, default=50000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-shipped-loader", action="store_true", help="do not time load() as shipped (slow)")
    ap.add_argument("--skip-cli", action="store_true", help="do not time the CLI subprocess")
    a = ap.parse_args()

    from quotactl.kueue.explain import explain_workload
    from quotactl.kueue.lookup import find_workload
    from quotactl.kueue.options import admission_check_states, engine_options
    from quotactl.kueue.quota import build_snapshot
    from quotactl.kueue.scope import scoped_cluster
    from quotactl.load import objects as loader
    from quotactl.load.document import Document
    from quotactl.load.yamlparse import Limits
    from quotactl.model.kueue_input import KueueInput
    from quotactl.report import explain_json

    def explain(objects) -> str:
        """Exactly the CLI's path after loading: scoped model, snapshot, explanation, JSON."""
        cluster = scoped_cluster(KueueInput(objects), target)
        options = engine_options(cluster, admission_checks=admission_check_states(objects))
        snapshot = build_snapshot(cluster, options)
        return explain_json.render(explain_workload(cluster, snapshot, find_workload(cluster, target).workload))

    def load_lazy(path: Path):
        """The loader's own object collection on a JSON document whose positions stay lazy
        (what load(fast_json=True) costs once _collect_objects stops asking for positions)."""
        with open(path) as f:
            data = json.load(f)
        result = loader.LoadResult()
        loader._collect_objects(Document(str(path), 0, data), data, (), result, depth=0)
        return result.objects

    doc, target = generate(a.cqs, a.cohorts, a.workloads)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "snapshot.json"
        path.write_text(json.dumps(doc))
        size = path.stat().st_size
        print(f"snapshot: {a.cqs} ClusterQueues, {a.cohorts} cohorts, {a.workloads} workloads, "
              f"{size / 2**20:.1f} MiB; explaining {target}")
        limits = Limits(max_bytes=size + 1)

        parse, shipped_load, lazy_load, engine = [], [], [], []
        out = ""
        for _ in range(a.runs):
            t0 = time.perf_counter()
            with open(path) as f:
                json.load(f)
            parse.append(time.perf_counter() - t0)

            t0 = time.perf_counter()
            objects = load_lazy(path)
            lazy_load.append(time.perf_counter() - t0)

            t0 = time.perf_counter()
            out = explain(objects)
            engine.append(time.perf_counter() - t0)
        if not a.skip_shipped_loader:
            t0 = time.perf_counter()
            loaded = loader.load([str(path)], limits=limits, fast_json=True)
            shipped_load.append(time.perf_counter() - t0)
            assert explain(loaded.objects) == out

        p, lz, en = min(parse), min(lazy_load), min(engine)
        print(f"json.load (bare parse):                  {best_and_median(parse)}")
        print(f"load, positions kept lazy:               {best_and_median(lazy_load)}")
        print(f"model + snapshot + explain + JSON:       {best_and_median(engine)}  (target <= 1 s)")
        print(f"total (lazy-position load + explain):    {lz + en:.3f}s  = {(lz + en) / p:.2f}x the bare parse "
              "(target <= 3x)")
        if shipped_load:
            sl = min(shipped_load)
            print(f"load() as shipped (positions forced):    {sl:.3f}s  -> total {sl + en:.3f}s "
                  f"= {(sl + en) / p:.2f}x the bare parse")
        res = json.loads(out)
        print(f"  result: {res['representativeMode']} / {res['reason']}: {res['verdict']}")

        if not a.skip_cli:
            env = {**os.environ, "NO_COLOR": "1", "QUOTACTL_MAX_FILE_SIZE": str(size + 1)}
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "quotactl", "explain", target, "-f", str(path), "-o", "json"],
                                  capture_output=True, text=True, cwd=ROOT, env=env)
            took = time.perf_counter() - t0
            print(f"CLI subprocess (as shipped, incl. start-up): {took:.3f}s (rc {proc.returncode})")


if __name__ == "__main__":
    main()
