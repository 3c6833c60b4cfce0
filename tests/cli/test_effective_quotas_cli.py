"""status.effectiveQuotas through the CLI in a subprocess (fixtures/dqo): schedule and explain use
it and say so; the JSON field is in the output schema."""

from __future__ import annotations

import json

import jsonschema

from tests.helpers import FIXTURES, ROOT, run_subprocess

CLUSTER = FIXTURES / "dqo" / "cluster.yaml"
SAID = "quota in force: status.effectiveQuotas of ClusterQueue/cq (Dynamic Quota Orchestration)"


def test_schedule_uses_and_names_the_effective_quotas():
    text = run_subprocess("schedule", "-f", CLUSTER)
    assert text.returncode == 0, text.stderr
    assert "admitted     ns/big [cq]" in text.stdout and SAID in text.stdout
    result = run_subprocess("schedule", "-f", CLUSTER, "-o", "json")
    doc = json.loads(result.stdout)
    assert doc["effectiveQuotas"] == ["ClusterQueue/cq"]
    schema = json.loads((ROOT / "quotactl" / "schemas" / "output" / "schedule.json").read_text())
    jsonschema.validate(doc, schema)


def test_the_gate_set_off_keeps_the_spec_and_says_nothing():
    result = run_subprocess("schedule", "-f", CLUSTER, "-o", "json", "--feature-gates",
                            "DynamicQuotaOrchestration=false")
    doc = json.loads(result.stdout)
    assert "effectiveQuotas" not in doc and [p["workload"] for p in doc["pending"]] == ["ns/big"]


def test_explain_notes_the_quota_in_force():
    result = run_subprocess("explain", "-f", CLUSTER, "ns/big", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert any(n.startswith(SAID) for n in json.loads(result.stdout)["notes"])
