"""Property: explain, preempt and schedule report the same caveats for the same input, whichever
workload is asked about (explain and preempt model one cohort tree; the caveats are the input's)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import run_cli
from tests.kueue.builders import V, admitted, cq, flavor, lq, pending
from tests.property_budget import examples

FEATURES = ("tas-flavor", "topology-request", "claims", "check", "pending-check", "wait-for-pods-ready",
            "preemption-config", "effective-quotas", "gate")


def _configuration(features: set[str]) -> dict | None:
    cfg: dict = {}
    if "wait-for-pods-ready" in features:
        cfg["waitForPodsReady"] = {"timeout": "5m"}
    if "gate" in features:
        cfg["featureGates"] = {"TASFailedNodeReplacement": False}
    if not cfg:
        return None
    return {"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration", "metadata": {"name": "k"}, **cfg}


@st.composite
def inputs(draw):
    """Two ClusterQueues in separate trees, workloads in both; each feature on a random object."""
    features = set(draw(st.lists(st.sampled_from(FEATURES), unique=True, max_size=4)))
    objs: list[dict] = [flavor("f")]
    if "tas-flavor" in features:
        objs[0]["spec"]["topologyName"] = "default"
    for name in ("a", "b"):
        objs += [cq(name, [(["cpu"], [("f", {"cpu": (4, None)})])]), lq("q-" + name, name)]
    workloads = [pending(f"p{i}", "q-" + draw(st.sampled_from("ab")), {"cpu": draw(st.integers(1, 5))},
                         created=100 + i) for i in range(draw(st.integers(1, 3)))]
    workloads += [admitted(f"r{i}", draw(st.sampled_from("ab")), {("f", "cpu"): 1}) for i in range(draw(st.integers(0, 2)))]
    carrier = draw(st.sampled_from(workloads))  # any tree: not necessarily the one asked about
    ps = carrier["spec"]["podSets"][0]
    if "topology-request" in features:
        ps["topologyRequest"] = {"required": "rack"}
    if "claims" in features:
        ps["template"]["spec"]["resourceClaims"] = [{"name": "gpu"}]
    if "pending-check" in features:
        carrier.setdefault("status", {})["admissionChecks"] = [{"name": "prov", "state": "Pending"}]
    queue = draw(st.sampled_from([o for o in objs if o["kind"] == "ClusterQueue"]))
    if "check" in features:
        queue["spec"]["admissionChecksStrategy"] = {"admissionChecks": [{"name": "prov"}]}
        objs.append({"apiVersion": V, "kind": "AdmissionCheck", "metadata": {"name": "prov"},
                     "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request"},
                     "status": {"conditions": [{"type": "Active", "status": "True"}]}})
    if "effective-quotas" in features:
        queue["status"] = {"effectiveQuotas": [{"name": "f", "resources": [{"name": "cpu", "quota": "2"}]}]}
    if "preemption-config" in features:
        objs.append({"apiVersion": "kueue.x-k8s.io/v1alpha1", "kind": "PreemptionConfig", "metadata": {"name": "pc"},
                     "spec": {}})
    cfg = _configuration(features)
    return objs + workloads + ([cfg] if cfg else [])


def _caveats(*args: str) -> list:
    result = run_cli(*args, "-o", "json")
    assert result.exit_code == 0, (args, result.exit_code, result.stderr)
    return json.loads(result.stdout)["caveats"]


@settings(max_examples=examples(40), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(inputs())
def test_explain_preempt_and_schedule_report_the_same_caveats(objs):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cluster.yaml"
        path.write_text("\n---\n".join(json.dumps(o) for o in objs))
        expected = _caveats("schedule", "-f", str(path))
        pending_keys = [f"default/{o['metadata']['name']}" for o in objs
                        if o["kind"] == "Workload" and "admission" not in o.get("status", {})]
        for key in pending_keys:
            assert _caveats("explain", key, "-f", str(path)) == expected, key
            assert _caveats("preempt", key, "-f", str(path)) == expected, key
        assert _caveats("explain", "--all", "-f", str(path)) == expected
        assert _caveats("shares", "-f", str(path)) == expected
