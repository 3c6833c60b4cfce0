"""status.effectiveQuotas of ClusterQueues and Cohorts (Kueue v0.20 Dynamic Quota Orchestration,
KEP-12382): the scheduler's quota is ``status.effectiveQuotas || spec.resourceGroups``."""

from __future__ import annotations

from quotactl.kueue.options import engine_options
from quotactl.kueue.quota import build_snapshot
from quotactl.kueue.quota.snapshot import effective_quotas_note, quotas_from_status
from quotactl.kueue.scheduler.loop import schedule
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import _groups, cohort, cq, flavor, lq, objects, pending


def effective(obj, groups):
    obj["status"] = {"effectiveQuotas": _groups(groups)}
    return obj


def setup(gates=None, cohort_quota=None, release=None):
    queue = effective(cq("cq", [(["cpu"], [("default", {"cpu": 2})])], cohort="co"),
                      [(["cpu"], [("default", {"cpu": 6})])])
    dicts = [flavor("default"), queue, lq("q", "cq"), pending("w", "q", {"cpu": 1}, count=4)]
    if cohort_quota is not None:
        dicts.append(effective(cohort("co", groups=[(["cpu"], [("default", {"cpu": 0})])]),
                               [(["cpu"], [("default", {"cpu": cohort_quota})])]))
    cluster = build_cluster(objects(dicts))
    options = engine_options(cluster, feature_gates=gates, **({"release": release} if release else {}))
    return cluster, options


def test_the_status_replaces_the_spec_quota():
    cluster, options = setup()
    snap = build_snapshot(cluster, options)
    node = snap.cluster_queues["cq"]
    assert node.quotas[("default", "cpu")].nominal == 6000
    result = schedule(cluster, options)
    assert [a.workload for a in result.admitted] == ["default/w"]
    assert result.quotas_from_status == ("ClusterQueue/cq",)
    assert "status.effectiveQuotas of ClusterQueue/cq" in effective_quotas_note(snap, "cq")


def test_a_cohorts_status_counts_too():
    cluster, options = setup(cohort_quota=5)
    snap = build_snapshot(cluster, options)
    assert snap.cohorts["co"].quotas[("default", "cpu")].nominal == 5000
    assert quotas_from_status(cluster, options) == ("Cohort/co", "ClusterQueue/cq")


def test_the_gate_set_off_or_an_older_release_keeps_the_spec():
    for cluster, options in (setup(gates={"DynamicQuotaOrchestration": False}), setup(release="v0.19")):
        assert build_snapshot(cluster, options).cluster_queues["cq"].quotas[("default", "cpu")].nominal == 2000
        result = schedule(cluster, options)
        assert result.admitted == () and result.quotas_from_status == ()
