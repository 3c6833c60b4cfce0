"""One test pair per Kueue caveat detector: the feature present gives its caveat, absent gives none."""

from __future__ import annotations

import re
from pathlib import Path

from quotactl.caveat import Caveat, named_objects
from quotactl.cli.caveats import merged_caveats
from quotactl.kueue.caveats import GATES_OF_DETECTORS, MODELLED_GATES, kueue_caveats
from quotactl.kueue.options import engine_options
from quotactl.model.kueue import build_cluster, workload_traits
from quotactl.model.kueue_checks import build_alpha_object
from tests.kueue.builders import V, cq, flavor, lq, objects, pending

ROOT = Path(__file__).resolve().parents[2]
ALPHA = "kueue.x-k8s.io/v1alpha1"


def caveats(dicts, gates=None) -> dict[str, Caveat]:
    """feature -> caveat of an input made of ``dicts`` (alpha kinds kept aside, as the loader does)."""
    alpha = [d for d in dicts if d["apiVersion"] == ALPHA]
    objs = objects([d for d in dicts if d["apiVersion"] != ALPHA])
    cluster = build_cluster(objs)
    options = engine_options(cluster, feature_gates=gates)
    traits = tuple(t for t in (workload_traits(o) for o in objs if o.kind == "Workload") if t)
    found = kueue_caveats(cluster, options, traits, tuple(build_alpha_object(o) for o in objects(alpha)))
    return {c.feature: c for c in found}


def base():
    return [flavor("default"), cq("cq", [(["cpu"], [("default", {"cpu": (8, None)})])]), lq("q-cq", "cq"),
            pending("w", "q-cq", {"cpu": 1})]


def config(version="v1beta2", **fields):
    return {"apiVersion": f"config.kueue.x-k8s.io/{version}", "kind": "Configuration",
            "metadata": {"name": "kueue"}, **fields}


def test_a_plain_input_has_no_caveat():
    assert caveats(base()) == {}
    assert caveats(base() + [config(fairSharing={}, waitForPodsReady=None)]) == {}


# --- topology-aware scheduling -------------------------------------------------------------------

def test_a_tas_flavor_and_a_topology_request_are_a_caveat():
    objs = base()
    objs[0]["spec"]["topologyName"] = "default"
    objs[3]["spec"]["podSets"][0]["topologyRequest"] = {"required": "rack"}
    found = caveats(objs)["TopologyAwareScheduling"]
    assert found.objects == ("ResourceFlavor/default", "Workload/default/w")
    assert "TopologyPlacementFailed" in found.message


def test_the_job_annotation_for_a_topology_is_a_caveat():
    objs = base()
    objs[3]["spec"]["podSets"][0]["template"]["metadata"] = {
        "annotations": {"kueue.x-k8s.io/podset-preferred-topology": "rack"}}
    assert caveats(objs)["TopologyAwareScheduling"].objects == ("Workload/default/w",)


def test_with_nodes_the_caveat_names_what_the_placement_leaves_out():
    objs = base()
    objs[0]["spec"]["topologyName"] = "default"
    objs += [{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Topology", "metadata": {"name": "default"},
              "spec": {"levels": [{"nodeLabel": "rack"}]}},
             {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"rack": "r1"}}}]
    message = caveats(objs)["TopologyAwareScheduling"].message
    assert "failed-node replacement" in message and "TASNodeFeasibilityForAllLevels" in message
    assert "quotactl fits pods per node" in message and "per lowest-level domain" not in message
    off = caveats(objs, gates={"TASNodeFeasibilityForAllLevels": False})["TopologyAwareScheduling"].message
    assert "TASNodeFeasibilityForAllLevels" not in off


def test_slices_are_modelled_but_uneven_slice_layers():
    """TASPartialSlices is modelled: a partial slice is no caveat; with slice layers Kueue's job
    webhook refuses a count the outer size does not divide, which quotactl does not (it places the
    whole slices)."""
    objs = base()
    objs[0]["spec"]["topologyName"] = "default"
    objs += [{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Topology", "metadata": {"name": "default"},
              "spec": {"levels": [{"nodeLabel": "block"}, {"nodeLabel": "rack"}]}},
             {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"block": "b", "rack": "r"}}}]
    ps = objs[3]["spec"]["podSets"][0]
    ps["count"] = 5
    ps["topologyRequest"] = {"required": "block", "podSetSliceRequiredTopology": "rack", "podSetSliceSize": 2}
    assert "outer slice size" not in caveats(objs)["TopologyAwareScheduling"].message
    ps["topologyRequest"] = {"required": "block", "podsetSliceRequiredTopologyConstraints": [
        {"topology": "block", "size": 2}, {"topology": "rack", "size": 1}]}
    assert "outer slice size does not divide its count" in caveats(objs)["TopologyAwareScheduling"].message
    off = caveats(objs, gates={"TASPartialSlices": False})["TopologyAwareScheduling"].message
    assert "outer slice size" not in off


def test_topologies_are_no_caveat_with_the_tas_gate_off():
    objs = base()
    objs[0]["spec"]["topologyName"] = "default"
    assert "TopologyAwareScheduling" not in caveats(objs, gates={"TopologyAwareScheduling": False})


# --- admission fair sharing ----------------------------------------------------------------------

def _afs_queue(objs):
    objs[1]["spec"]["admissionScope"] = {"admissionMode": "UsageBasedAdmissionFairSharing"}
    return objs


def test_admission_fair_sharing_is_modelled_so_no_caveat():
    objs = _afs_queue(base()) + [config(admissionFairSharing={"usageHalfLifeTime": "168h"})]
    objs[2]["spec"]["fairSharing"] = {"weight": "2"}
    assert "AdmissionFairSharing" not in caveats(objs)


def test_admission_fair_sharing_with_admission_checks_names_the_queue():
    """What stays unmodelled: the in-memory entry penalty of a workload waiting for its checks."""
    objs = _afs_queue(base()) + [config(admissionFairSharing={"usageHalfLifeTime": "168h"}),
                                 _check("prov", "kueue.x-k8s.io/provisioning-request")]
    objs[1]["spec"]["admissionChecksStrategy"] = {"admissionChecks": [{"name": "prov"}]}
    found = caveats(objs)["AdmissionFairSharing"]
    assert found.objects == ("ClusterQueue/cq",) and "entry penalty" in found.message
    assert "AdmissionFairSharing" not in caveats(objs, gates={"AdmissionFairSharing": False})
    without_section = [o for o in objs if o["kind"] != "Configuration"]
    assert "AdmissionFairSharing" not in caveats(without_section)


# --- admission checks and MultiKueue ------------------------------------------------------------

def _check(name, controller):
    return {"apiVersion": V, "kind": "AdmissionCheck", "metadata": {"name": name},
            "spec": {"controllerName": controller},
            "status": {"conditions": [{"type": "Active", "status": "True"}]}}


def _with_check(objs, name):
    objs[1]["spec"]["admissionChecksStrategy"] = {"admissionChecks": [{"name": name}]}
    return objs


def test_a_check_whose_answer_the_input_does_not_give_is_a_caveat():
    objs = _with_check(base(), "prov") + [_check("prov", "kueue.x-k8s.io/provisioning-request")]
    found = caveats(objs)
    assert found["AdmissionChecks"].objects == ("AdmissionCheck/prov",)
    assert "MultiKueue" not in found


def test_a_check_answered_by_an_annotation_is_modelled():
    answered = _check("prov", "kueue.x-k8s.io/provisioning-request")
    answered["metadata"]["annotations"] = {"quotactl.io/outcome": "Ready@30s"}
    assert "AdmissionChecks" not in caveats(_with_check(base(), "prov") + [answered])
    objs = _with_check(base(), "prov") + [_check("prov", "kueue.x-k8s.io/provisioning-request")]
    objs[3]["metadata"]["annotations"] = {"quotactl.io/check.prov": "Ready@5s"}
    assert "AdmissionChecks" not in caveats(objs)


def test_a_workload_waiting_on_a_check_is_modelled():
    objs = base()
    for state in ("Pending", "Ready", "Retry", "Rejected"):
        objs[3]["status"] = {"admissionChecks": [{"name": "prov", "state": state}]}
        assert "AdmissionChecks" not in caveats(objs)


def test_a_multikueue_check_is_the_multikueue_caveat():
    objs = _with_check(base(), "mk") + [_check("mk", "kueue.x-k8s.io/multikueue")]
    found = caveats(objs)
    assert found["MultiKueue"].objects == ("AdmissionCheck/mk", "ClusterQueue/cq")
    assert "AdmissionChecks" not in found
    assert "MultiKueue" not in caveats(base() + [_check("mk", "kueue.x-k8s.io/multikueue")])  # unused check


# --- waitForPodsReady ------------------------------------------------------------------------------

def test_wait_for_pods_ready_is_modelled_but_unscheduled_timeout_and_per_workload_timeouts():
    assert "WaitForPodsReady" not in caveats(base() + [config("v1beta1", waitForPodsReady={"enable": True})])
    unscheduled = {"enable": True, "unscheduledTimeout": "5m"}
    assert caveats(base() + [config("v1beta1", waitForPodsReady=unscheduled)])["WaitForPodsReady"].objects \
        == ("Configuration/kueue",)
    assert "WaitForPodsReady" not in caveats(base() + [config("v1beta1", waitForPodsReady={
        "enable": False, "unscheduledTimeout": "5m"})])
    own = base() + [config(waitForPodsReady={"timeout": "5m"})]
    own[3]["metadata"]["annotations"] = {"kueue.x-k8s.io/pods-ready-timeout": "1m"}
    assert caveats(own)["WaitForPodsReady"].objects == ("Workload/default/w",)
    assert "WaitForPodsReady" not in caveats(own, gates={"DisableWaitForPodsReady": True})


# --- DRA, alpha kinds, effective quotas ---------------------------------------------------------

def _claiming(template: dict, mappings: list[dict]):
    """base() with Workload w using ResourceClaimTemplate one-gpu (``template``: its spec.spec)."""
    objs = base()
    pod = objs[3]["spec"]["podSets"][0]["template"]["spec"]
    pod["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]
    rct = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
           "metadata": {"name": "one-gpu", "namespace": "default"}, "spec": {"spec": template}}
    return objs + [rct, config(resources={"deviceClassMappings": mappings})]


GPU = {"devices": {"requests": [{"name": "g", "exactly": {"deviceClassName": "gpu.example.com"}}]}}
MAPPED = [{"name": "example.com/gpu", "deviceClassNames": ["gpu.example.com"]}]


def test_resource_claims_counted_by_device_class_are_no_caveat():
    assert "DynamicResourceAllocation" not in caveats(_claiming(GPU, MAPPED))
    # an unmapped class is modelled too: the workload is not admitted (DRAResourcesUnresolved)
    assert "DynamicResourceAllocation" not in caveats(_claiming(GPU, []))


def test_cel_selectors_and_sourced_mappings_stay_a_caveat():
    cel = {"devices": {"requests": [{"name": "g", "exactly": {
        "deviceClassName": "gpu.example.com", "selectors": [{"cel": {"expression": "device.driver == 'x'"}}]}}]}}
    found = caveats(_claiming(cel, MAPPED))["DynamicResourceAllocation"]
    assert found.objects == ("Workload/default/w",)
    assert "CEL selectors" in found.message
    sourced = [{**MAPPED[0], "sources": [{"counter": {"driver": "gpu.example.com", "name": "memory"}}]}]
    assert "counter or capacity sources" in caveats(_claiming(GPU, sourced))["DynamicResourceAllocation"].message
    assert "DynamicResourceAllocation" not in caveats(_claiming(cel, MAPPED), gates={"KueueDRAIntegration": False})


def test_a_preemption_config_is_a_caveat():
    pc = {"apiVersion": ALPHA, "kind": "PreemptionConfig", "metadata": {"name": "p"}, "spec": {}}
    assert caveats(base() + [pc])["ConfigurablePreemptions"].objects == ("PreemptionConfig/p",)


def test_effective_quotas_are_modelled_and_an_orchestrator_is_a_caveat():
    objs = base()
    objs[1]["status"] = {"effectiveQuotas": [{"coveredResources": ["cpu"], "flavors": [
        {"name": "default", "resources": [{"name": "cpu", "nominalQuota": "4"}]}]}]}
    assert "DynamicQuotaOrchestration" not in caveats(objs)
    dqo = {"apiVersion": ALPHA, "kind": "DynamicQuotaOrchestrator", "metadata": {"name": "d"}, "spec": {}}
    assert caveats(objs + [dqo])["DynamicQuotaOrchestration"].objects == ("DynamicQuotaOrchestrator/d",)


# --- feature gates ------------------------------------------------------------------------------------

def test_a_gate_off_its_default_that_quotactl_does_not_honour_is_a_caveat():
    found = caveats(base(), gates={"TASFailedNodeReplacement": False})["FeatureGates"]
    assert found.objects == ("--feature-gates",)
    assert "TASFailedNodeReplacement=false" in found.message
    in_config = caveats(base() + [config(featureGates={"TASFailedNodeReplacement": False})])["FeatureGates"]
    assert in_config.objects == ("Configuration/kueue",)


def test_many_gates_are_named_up_to_five():
    message = caveats(base(), gates={"AllAlpha": True})["FeatureGates"].message
    assert message.count("=true") == 5 and " more, which may change the answer" in message


def test_honoured_gates_and_gates_at_their_default_are_no_caveat():
    assert "FeatureGates" not in caveats(base(), gates={"PartialAdmission": False})
    assert "FeatureGates" not in caveats(base(), gates={"TASBalancedPlacement": False})


def test_modelled_gates_are_the_gates_the_engines_read():
    """A gate an engine starts to honour leaves the caveats; one it stops reading joins them."""
    read = set()
    for package in ("kueue", "simulate", "jobs", "model"):
        for path in (ROOT / "quotactl" / package).rglob("*.py"):
            read |= set(re.findall(r'enabled\("([A-Za-z]+)"\)', path.read_text()))
    assert MODELLED_GATES == read - GATES_OF_DETECTORS


# --- the record -------------------------------------------------------------------------------------

def test_objects_are_sorted_distinct_and_bounded():
    assert named_objects(["b", "a", "b"]) == ("a", "b")
    assert named_objects([f"w{i}" for i in range(7)]) == ("w0", "w1", "w2", "w3", "w4", "+2 more")


def test_diff_merges_both_sides_caveats():
    base_side = (Caveat("A", ("x",), "m"),)
    head_side = (Caveat("A", ("y",), "m"), Caveat("B", ("z",), "n"))
    assert merged_caveats(base_side, head_side) == (Caveat("A", ("x", "y"), "m"), Caveat("B", ("z",), "n"))
