"""PreemptionConfig (kueue.x-k8s.io/v1alpha1, Kueue v0.20 ConfigurablePreemptions) through the CLI in
a subprocess: lint checks it against its CRD (schemas/kueue/v1alpha1/preemptionconfig.json, after
Kueue's apis/kueue/v1alpha1/preemptionconfig_types.go); schedule and preempt name it as a caveat,
since the victims it would add are not modelled."""

from __future__ import annotations

import json

from tests.helpers import FIXTURES, run_subprocess

VALID = FIXTURES / "preemption-config" / "valid.yaml"
INVALID = FIXTURES / "preemption-config" / "invalid.yaml"
CLUSTER = FIXTURES / "dqo" / "cluster.yaml"


def _lint(path) -> dict:
    result = run_subprocess("lint", path, "-o", "json")
    return json.loads(result.stdout)


def _findings(doc):
    return [(d["code"], d["field"]) for d in doc["diagnostics"] if d["code"].startswith("KQ")]


def test_a_valid_preemption_config_has_no_finding():
    result = run_subprocess("lint", VALID)
    assert result.returncode == 0, result.stdout
    assert "checks against its CRD" in result.stdout


def test_schema_errors_of_a_preemption_config():
    result = run_subprocess("lint", INVALID)
    assert result.returncode == 1
    assert "[PreemptionConfig/hero spec.rules[1].name]" in result.stdout
    found = _findings(_lint(INVALID))
    assert ("KQ002", "spec.rules[1].activationPolicy.trigger") in found
    assert ("KQ002", "spec.rules[1].candidateSelectors[0].scope") in found
    assert ("KQ004", "spec.rules[1].candidateSelectors[0].numericLabels[0].minValue") in found
    assert ("KQ007", "spec.rules[1].candidateSelectors[0].priorty") in found
    assert ("KQ450", "spec.rules[2].candidateSelectors[0].priority") in found  # CEL: mode without comparison
    assert ("KQ450", "spec.rules[2].candidateSelectors[0].numericLabels[0]") in found  # CEL: minValue > maxValue


def test_schedule_and_preempt_report_it_as_a_caveat():
    for args in (("schedule",), ("preempt", "ns/big")):
        result = run_subprocess(*args, "-f", CLUSTER, "-f", VALID, "-o", "json")
        caveats = {c["feature"]: c for c in json.loads(result.stdout)["caveats"]}
        assert caveats["ConfigurablePreemptions"]["objects"] == ["PreemptionConfig/hero"], args
