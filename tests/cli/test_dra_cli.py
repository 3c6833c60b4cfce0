"""DRA device claims through the CLI in a subprocess (fixtures/dra): schedule charges the devices of
ResourceClaimTemplates to the mapped resource, explain says why an unmapped class keeps a workload
out (DRAResourcesUnresolved), a Job's claims are derived into its Workload, and lint's KQ523
names the unmapped class."""

from __future__ import annotations

import json

from tests.helpers import FIXTURES, run_subprocess

CLUSTER = FIXTURES / "dra" / "cluster.yaml"
JOB = FIXTURES / "dra" / "job.yaml"
UNMAPPED = ('spec.podSets[0].template.spec.resourceClaims[0].resourceClaimTemplateName: Not found: '
            '"DeviceClass fpga.example.com is not mapped in DRA configuration for podset main"')


def _json(*args) -> dict:
    result = run_subprocess(*args, "-o", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_schedule_charges_devices_and_refuses_an_unmapped_class():
    doc = _json("schedule", "-f", CLUSTER)
    assert [a["workload"] for a in doc["admitted"]] == ["ns/a"]
    gpu = doc["usage"]["clusterQueues"]["cq"]["default"]["example.com/gpu"]
    assert gpu["usage"] == "4"  # 2 pods x 2 devices
    pending = {p["workload"]: p for p in doc["pending"]}
    assert pending["ns/b"]["reason"] == "WaitingForQuota"
    assert (pending["ns/c"]["reason"], pending["ns/c"]["message"]) == ("Misconfigured", UNMAPPED)
    assert doc["caveats"] == []  # counted by device class: nothing left unmodelled


def test_explain_says_the_dra_resources_are_unresolved():
    result = run_subprocess("explain", "-f", CLUSTER, "ns/c")
    assert result.returncode == 0, result.stderr
    assert "DRAResourcesUnresolved: device class fpga.example.com" in result.stdout
    assert UNMAPPED in result.stdout
    charged = run_subprocess("explain", "-f", CLUSTER, "ns/b")
    assert "pod set main: cpu 1, example.com/gpu 2 per pod × 1" in charged.stdout


def test_a_jobs_claims_reach_its_workload():
    doc = _json("schedule", "-f", CLUSTER, "-f", JOB)
    job = [p for p in doc["pending"] if p["workload"].startswith("ns/job-j-")]
    assert [(p["reason"], p["message"]) for p in job] == [("Misconfigured", UNMAPPED)]


def test_lint_reports_the_unmapped_device_class():
    result = run_subprocess("lint", CLUSTER, "--select", "KQ523")
    assert result.returncode == 0, result.stderr  # a warning: no --fail-on hit
    assert "KQ523 device class fpga.example.com of ResourceClaimTemplate ns/fpga" in result.stdout
    assert "Workload(s) ns/c stay pending" in result.stdout


def test_a_bad_claim_template_is_no_traceback():
    bad = CLUSTER.read_text().replace("exactly: {deviceClassName: gpu.example.com, count: 2}", "exactly: [1, 2]")
    result = run_subprocess("schedule", "-f", "-", input=bad)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "ResourceClaimTemplate two-gpus: Exactly must be set if FirstAvailable is nil" in result.stdout
