"""Building small clusters for the simulation tests (on top of tests.kueue.builders)."""

from __future__ import annotations

from quotactl.kueue.options import engine_options
from quotactl.model.kueue import build_cluster
from quotactl.simulate.cadence import Cadence
from quotactl.simulate.clock import US
from quotactl.simulate.run import SimulationOptions, simulate
from tests.kueue.builders import admitted, objects, pending, with_queues


def job(name, queue_cq, cpu, created, runtime=None, priority=0, max_exec=None, klass=None):
    """A pending workload created ``created`` seconds after 2026-01-01T00:00:00Z."""
    d = pending(name, "q-" + queue_cq, {"cpu": cpu}, priority=priority, created=created)
    if runtime is not None:
        d["metadata"]["annotations"] = {"quotactl.io/runtime": runtime}
    if max_exec is not None:
        d["spec"]["maximumExecutionTimeSeconds"] = max_exec
    if klass is not None:
        d["metadata"]["labels"] = {"quotactl.io/class": klass}
    return d


def running(name, cq_name, cpu, reserved, runtime=None, priority=0):
    d = admitted(name, cq_name, {("f", "cpu"): cpu}, priority=priority, reserved=reserved, created=reserved)
    if runtime is not None:
        d["metadata"]["annotations"] = {"quotactl.io/runtime": runtime}
    return d


def model(dicts):
    cluster = build_cluster(objects(with_queues(dicts)))
    return cluster, engine_options(cluster)


def run(dicts, interval=0, cost=0, **kw):
    cluster, options = model(dicts)
    sim = SimulationOptions(cadence=Cadence(interval * US, cost * US), **kw)
    return simulate(cluster, options, sim)


def by_name(result) -> dict:
    return {w.workload.rpartition("/")[2]: w for w in result.workloads}


def secs(values) -> list:
    return [v / US for v in values]
