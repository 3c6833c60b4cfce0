"""Time ``quotactl simulate`` (the engine) at Kueue's large-scale benchmark size.

The scenario is shaped like Kueue's scheduler-performance generator configs
(test/performance/scheduler/configs/*/generator.yaml): cohorts of ClusterQueues with a nominal
cpu quota and a borrowing limit, reclaimWithinCohort Any, withinClusterQueue LowerPriority, and
per ClusterQueue three workload sets (small / medium / large: 1 / 5 / 20 cpu, priorities 50 /
100 / 200, runtimes 50 / 100 / 200 ms), each set creating one workload per interval.  Default:
10 cohorts x 100 ClusterQueues = 1,000 ClusterQueues, 50 workloads each = 50,000 workloads (the
target is <= 10 s wall in the default fixpoint mode).  The objects go through the same path as a
``--generator`` config (``simulate.generated``), then the model, then the clock.

    .venv/bin/python benchmarks/simulate_scale.py                 # 1,000 CQs, 50,000 workloads
    .venv/bin/python benchmarks/simulate_scale.py --scale 0.1     # a tenth of it
    .venv/bin/python benchmarks/simulate_scale.py --cycle-interval 0.1s
    .venv/bin/python benchmarks/simulate_scale.py --profile 25    # cProfile, top 25 by own time
    .venv/bin/python benchmarks/simulate_scale.py --jobs 2        # independent cohort trees on two processes
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

V = "kueue.x-k8s.io/v1beta2"
# (class, count per ClusterQueue, creation interval s, runtime s, priority, cpu)
SETS = (("small", 35, 0.02, 0.05, 50, 1), ("medium", 10, 0.05, 0.1, 100, 5), ("large", 5, 0.2, 0.2, 200, 20))
# --shape baseline: Kueue's configs/baseline/generator.yaml (5 cohorts x 6 ClusterQueues, 500 workloads each)
BASELINE = (5, 6, (("small", 350, 0.1, 0.2, 50, 1), ("medium", 100, 0.5, 0.5, 100, 5),
                   ("large", 50, 1.2, 1.0, 200, 20)))


@dataclass(frozen=True)
class Workload:  # the shape of simulate.generator.GeneratedWorkload
    manifest: dict
    arrival: float


@dataclass(frozen=True)
class Scenario:  # the shape of simulate.generator.GeneratedScenario
    source: str
    objects: tuple
    workloads: tuple


def scenario(cohorts: int, queues: int, sets: tuple = SETS) -> Scenario:
    objects = [{"apiVersion": V, "kind": "ResourceFlavor", "metadata": {"name": "rf"}, "spec": {}}]
    workloads = []
    for c in range(cohorts):
        for q in range(queues):
            name = f"cq-{c}-{q}"
            objects.append({"apiVersion": V, "kind": "ClusterQueue", "metadata": {"name": name}, "spec": {
                "cohortName": f"cohort-{c}", "namespaceSelector": {},
                "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
                "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "rf", "resources": [
                    {"name": "cpu", "nominalQuota": "20", "borrowingLimit": "100"}]}]}]}})
            objects.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
            objects.append({"apiVersion": V, "kind": "LocalQueue", "metadata": {"name": name, "namespace": name},
                            "spec": {"clusterQueue": name}})
            for set_idx, (cls, count, interval, runtime, priority, cpu) in enumerate(sets):
                for i in range(count):
                    workloads.append(Workload({
                        "apiVersion": V, "kind": "Workload",
                        "metadata": {"name": f"{cls}-{set_idx}-{i}-0", "namespace": name,
                                     "labels": {"quotactl.io/class": cls},
                                     "annotations": {"quotactl.io/runtime": f"{runtime}s"}},
                        "spec": {"queueName": name, "priority": priority, "podSets": [{
                            "name": "main", "count": 1, "template": {"spec": {"containers": [{
                                "name": "c", "resources": {"requests": {"cpu": str(cpu)}}}]}}}]}},
                        round((i + 1) * interval, 6)))
    return Scenario("benchmark-scenario.yaml", tuple(objects), tuple(workloads))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the 1,000 ClusterQueues")
    ap.add_argument("--cycle-interval", default=None, help="tick mode: one cycle every DURATION")
    ap.add_argument("--admission-cost", default=None, help="tick mode: virtual time per admission")
    ap.add_argument("--profile", type=int, default=0, help="print the top N functions by own time")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes for independent cohort trees (fixpoint mode; simulate --jobs); "
                         "the CPU time shown is this process's only")
    ap.add_argument("--shape", choices=("large", "baseline"), default="large",
                    help="large: the default scenario above; baseline: Kueue's baseline generator config")
    a = ap.parse_args()

    from quotactl.kueue.options import engine_options
    from quotactl.model.kueue import build_cluster
    from quotactl.simulate.cadence import FIXPOINT, Cadence
    from quotactl.simulate.clock import parse_duration
    from quotactl.simulate.generated import generated_objects
    from quotactl.simulate.run import SimulationOptions, simulate
    from quotactl.simulate.scenario import start_time

    queues = max(1, round(100 * a.scale)) if a.scale < 1 else 100
    cohorts = 10 if a.scale < 1 else round(10 * a.scale)
    t, cpu = time.perf_counter(), time.process_time()
    sc = scenario(cohorts, queues) if a.shape == "large" else scenario(*BASELINE)
    base = build_cluster([])
    t0 = start_time(base)
    cluster = build_cluster(generated_objects(sc, t0))
    options = engine_options(cluster)
    built, built_cpu = time.perf_counter() - t, time.process_time() - cpu
    cadence = FIXPOINT
    if a.cycle_interval:
        cadence = Cadence(parse_duration(a.cycle_interval), parse_duration(a.admission_cost or "0"))
    sim = SimulationOptions(cadence=cadence, jobs=a.jobs)
    prof = cProfile.Profile() if a.profile else None
    t, cpu = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    result = simulate(cluster, options, sim, t0=t0)
    if prof:
        prof.disable()
    ran, ran_cpu = time.perf_counter() - t, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    admissions = sum(len(w.admissions) for w in result.workloads)
    evictions = sum(len(w.evictions) for w in result.workloads)
    print(f"{len(cluster.cluster_queues)} ClusterQueues, {len(result.workloads)} workloads: "
          f"model {built:.2f} s ({built_cpu:.2f} s CPU), simulation {ran:.2f} s wall ({ran_cpu:.2f} s CPU), peak RSS {peak:.0f} MB")
    print(f"  {result.cycles} cycles, {admissions} admissions, {evictions} evictions, end t0+{result.end / 1e6:g} s, "
          f"converged {result.converged}")
    for c in result.classes:
        print(f"  {c.name:>6}: {c.workloads} workloads, mean wait {c.wait.mean}s, p95 {c.wait.p95}s, max {c.wait.max}s")
    usage = [q.usage.get("cpu") or 0 for q in result.cluster_queues]
    print(f"  mean usage of nominal cpu: {sum(usage) / max(1, len(usage)):.1%}")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(a.profile)


if __name__ == "__main__":
    main()
