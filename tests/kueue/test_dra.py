"""DRA device claims charged to quota as Kueue does (model/dra.py, kueue pkg/dra/claims.go) and the
workload controller's refusal of claims it cannot resolve (kueue/nomination.py dra_blocker)."""

from __future__ import annotations

from quotactl.kueue.nomination import dra_blocker
from quotactl.kueue.options import engine_options
from quotactl.kueue.scheduler.loop import schedule
from quotactl.kueue.workload import pod_set_requests
from quotactl.model.dra import MSG_GATE_OFF, MSG_RESOURCE_CLAIMS
from quotactl.model.kueue import build_cluster
from tests.kueue.builders import cq, flavor, lq, objects, pending

GPU_CLASS = "gpu.example.com"
MAPPINGS = [{"name": "example.com/gpu", "deviceClassNames": [GPU_CLASS]}]


def config(mappings=MAPPINGS, gates=None):
    out = {"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration", "metadata": {"name": "kueue"},
           "resources": {"deviceClassMappings": mappings}}
    if gates:
        out["featureGates"] = gates
    return out


def template(name, *requests, ns="default", version="v1"):
    return {"apiVersion": f"resource.k8s.io/{version}", "kind": "ResourceClaimTemplate",
            "metadata": {"name": name, "namespace": ns}, "spec": {"spec": {"devices": {"requests": list(requests)}}}}


def exactly(device_class=GPU_CLASS, count=None, **more):
    body = {"deviceClassName": device_class, **more}
    if count is not None:
        body["count"] = count
    return {"name": "r", "exactly": body}


def claiming(name, claims, count=1, ns="default", cpu=1):
    wl = pending(name, "q", {"cpu": cpu}, count=count, ns=ns)
    wl["spec"]["podSets"][0]["template"]["spec"]["resourceClaims"] = claims
    return wl


def by_template(t="gpus"):
    return [{"name": "c", "resourceClaimTemplateName": t}]


def base(gpus=4):
    return [flavor("default"),
            cq("cq", [(["cpu", "example.com/gpu"], [("default", {"cpu": 16, "example.com/gpu": gpus})])]),
            lq("q", "cq")]


def cluster_and_options(dicts, gates=None):
    cluster = build_cluster(objects(dicts))
    return cluster, engine_options(cluster, feature_gates=gates)


def test_devices_are_charged_per_pod_to_the_mapped_resource():
    cluster, options = cluster_and_options(
        base() + [config(), template("gpus", exactly(count=2), exactly()), claiming("w", by_template(), count=3)])
    (ps,) = pod_set_requests(cluster.workloads["default/w"], options)
    assert ps.per_pod == {"cpu": 1000, "example.com/gpu": 3}
    assert ps.total == {"cpu": 3000, "example.com/gpu": 9}


def test_admin_access_is_free_and_v1beta1_requests_count():
    admin = exactly(count=5, adminAccess=True)
    v1beta1 = {"name": "r", "deviceClassName": GPU_CLASS, "count": 2}
    cluster, options = cluster_and_options(base() + [config(), template("gpus", admin),
                                                     template("old", v1beta1, version="v1beta1"),
                                                     claiming("w", by_template() + by_template("old"))])
    (ps,) = pod_set_requests(cluster.workloads["default/w"], options)
    assert ps.per_pod == {"cpu": 1000, "example.com/gpu": 2}


def test_the_schedule_admits_by_device_quota():
    dicts = base(gpus=4) + [config(), template("gpus", exactly(count=2))]
    dicts += [claiming(n, by_template()) for n in ("a", "b", "c")]
    cluster, options = cluster_and_options(dicts)
    result = schedule(cluster, options)
    admitted = sorted(a.workload for a in result.admitted)
    assert admitted == ["default/a", "default/b"]


def test_an_unmapped_device_class_leaves_the_workload_unresolved():
    cluster, options = cluster_and_options(
        base() + [config(), template("fpga", exactly("fpga.example.com")), claiming("w", by_template("fpga"))])
    blocker = dra_blocker(cluster.workloads["default/w"], options)
    assert blocker.reason == "Misconfigured"
    assert blocker.message == ('spec.podSets[0].template.spec.resourceClaims[0].resourceClaimTemplateName: Not found: '
                               '"DeviceClass fpga.example.com is not mapped in DRA configuration for podset main"')
    assert blocker.detail.startswith("DRAResourcesUnresolved: device class fpga.example.com")
    result = schedule(cluster, options)
    assert [p.reason for p in result.pending] == ["Misconfigured"]


def test_unsupported_requests_a_missing_template_and_resource_claims():
    first = {"name": "r", "firstAvailable": [{"name": "a", "deviceClassName": GPU_CLASS}]}
    cases = {
        "first": (template("first", first), by_template("first"),
                  "spec.podSets[0].template.spec.resourceClaims[0].devices.requests[0]: Invalid value: \"null\": "
                  "ResourceClaimTemplate first: FirstAvailable device selection is not supported"),
        "all": (template("all", exactly(allocationMode="All")), by_template("all"),
                "spec.podSets[0].template.spec.resourceClaims[0].devices.requests[0].exactly.allocationMode: Invalid "
                "value: \"All\": ResourceClaimTemplate all: AllocationMode 'All' is not supported"),
        "missing": (None, by_template("absent"),
                    "spec.podSets[0].template.spec.resourceClaims[0]: Internal error: failed to get claim spec for "
                    "ResourceClaimTemplate absent in podset main: resourceclaimtemplates.resource.k8s.io \"absent\" "
                    "not found"),
        "claim": (None, [{"name": "c", "resourceClaimName": "shared"}], MSG_RESOURCE_CLAIMS),
    }
    for name, (tmpl, claims, message) in cases.items():
        cluster, options = cluster_and_options(base() + [config()] + ([tmpl] if tmpl else []) + [claiming(name, claims)])
        assert dra_blocker(cluster.workloads[f"default/{name}"], options).message == message, name


def test_the_integration_gate():
    dicts = base() + [config(), template("gpus", exactly(count=2)), claiming("w", by_template())]
    cluster, options = cluster_and_options(dicts, gates={"KueueDRAIntegration": False})
    assert dra_blocker(cluster.workloads["default/w"], options).message == MSG_GATE_OFF
    cluster, options = cluster_and_options(dicts, gates={"KueueDRAIntegration": False,
                                                         "KueueDRARejectWorkloadsWhenDRADisabled": False})
    wl = cluster.workloads["default/w"]
    assert dra_blocker(wl, options) is None
    assert pod_set_requests(wl, options)[0].per_pod == {"cpu": 1000}  # admitted without its devices


def test_templates_resolve_in_the_workloads_namespace_whatever_the_input_order():
    a, b = claiming("w", by_template(), ns="a"), claiming("w", by_template(), ns="b")
    b["spec"]["podSets"] = a["spec"]["podSets"]  # one pod set list, as a generator shares it
    dicts = [a, b] + base() + [config(), template("gpus", exactly(count=1), ns="a"),
                               template("gpus", exactly(count=3), ns="b")]
    cluster, options = cluster_and_options(dicts)
    assert pod_set_requests(cluster.workloads["a/w"], options)[0].per_pod["example.com/gpu"] == 1
    assert pod_set_requests(cluster.workloads["b/w"], options)[0].per_pod["example.com/gpu"] == 3


def test_device_counts_saturate():
    huge = 2**63 - 1
    cluster, options = cluster_and_options(
        base() + [config(), template("gpus", exactly(count=huge), exactly(count=huge)), claiming("w", by_template())])
    assert pod_set_requests(cluster.workloads["default/w"], options)[0].per_pod["example.com/gpu"] == huge


def test_a_workload_without_claims_is_untouched():
    cluster, _ = cluster_and_options(base() + [config(), pending("w", "q", {"cpu": 1})])
    assert cluster.workloads["default/w"].dra is None
