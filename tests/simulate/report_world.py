"""One small simulation the report tests share: two ClusterQueues in a cohort, classes, a
preemption with lost work, a workload without runtime and an overdue one."""

from __future__ import annotations

from datetime import datetime, timezone

from tests.kueue.builders import cq, flavor
from tests.simulate.world import job, run, running


def small_world() -> list:
    return [
        flavor("f"),
        cq("team-a", [(["cpu"], [("f", {"cpu": 10})])], cohort="org", within="LowerPriority"),
        cq("team-b-with-a-rather-long-name-for-folding", [(["cpu"], [("f", {"cpu": 6})])], cohort="org"),
        running("overdue", "team-a", 2, 0, "30s"),
        running("notebook", "team-b-with-a-rather-long-name-for-folding", 2, 50),
        job("train-1", "team-a", 6, 100, "10m", klass="large"),
        job("train-2", "team-a", 8, 160, "5m", priority=10, klass="large"),
        job("eval-1", "team-b-with-a-rather-long-name-for-folding", 4, 120, "90s", klass="small"),
        job("eval-2", "team-b-with-a-rather-long-name-for-folding", 4, 130, "2m", klass="small"),
        job("eval-3", "team-a", 2, 400, "1m", klass="small"),
    ]


T0 = datetime(2026, 1, 1, 0, 1, tzinfo=timezone.utc)  # 60 s after the builders' epoch


def small_result():
    """From t0 = 60 s: "overdue" ended at 30 s; train-2 (priority 10) preempts train-1 at 160 s."""
    return run(small_world(), start=T0)
