"""Caveats through the real CLI: every engine command's JSON carries the input's caveats (schema
valid), the text prints them under its first line, and --strict exits 1 on one (after the report)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from tests.helpers import FIXTURES, ROOT, run_subprocess

TAS = FIXTURES / "caveats" / "tas.yaml"  # a workload with a topologyRequest on a TAS flavor
GANG = FIXTURES / "caveats" / "yunikorn-gang.yaml"  # a YuniKorn gang member with pod anti-affinity
PLAIN = FIXTURES / "cluster"
TAS_CAVEAT = {"feature": "TopologyAwareScheduling", "objects": ["ResourceFlavor/tas", "Workload/ml/train"]}


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / "output" / f"{name}.json").read_text()))


def json_of(*args: str, code: int = 0) -> dict:
    proc = run_subprocess(*args, "-o", "json")
    assert proc.returncode == code, (args, proc.returncode, proc.stderr)
    return json.loads(proc.stdout)


def without_message(caveats: list[dict]) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "message"} for c in caveats]


COMMANDS = {  # command line -> its output schema
    ("explain", "ml/train"): "explain",
    ("explain", "--all"): "explain",
    ("explain", "ml/train", "--eta"): "explain",
    ("preempt", "ml/train"): "preempt",
    ("schedule",): "schedule",
    ("simulate",): "simulate",
    ("shares",): "shares",
}


@pytest.mark.parametrize("args", list(COMMANDS), ids=" ".join)
def test_every_engine_document_carries_the_tas_caveat(args):
    doc = json_of(*args, "-f", str(TAS))
    schema(COMMANDS[args]).validate(doc)
    assert without_message(doc["caveats"]) == [TAS_CAVEAT]
    assert "TopologyPlacementFailed" in doc["caveats"][0]["message"]


def test_diff_carries_the_caveats_of_both_sides():
    doc = json_of("diff", "--base", str(TAS), "--head", str(TAS))
    schema("diff").validate(doc)
    assert without_message(doc["caveats"]) == [TAS_CAVEAT]


def test_the_text_prints_the_caveat_under_the_verdict():
    proc = run_subprocess("explain", "ml/train", "-f", str(TAS), "-o", "plain")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("caveat: TopologyAwareScheduling — ")
    assert lines[1].endswith("(ResourceFlavor/tas, Workload/ml/train)")
    assert sum(line.startswith("caveat:") for line in lines) == 1


def test_strict_exits_1_on_a_caveat_after_the_full_report():
    plain = run_subprocess("explain", "ml/train", "-f", str(TAS), "-o", "plain")
    strict = run_subprocess("explain", "ml/train", "-f", str(TAS), "-o", "plain", "--strict")
    assert strict.returncode == 1, strict.stderr
    assert strict.stdout == plain.stdout
    for args in (("schedule",), ("preempt", "ml/train"), ("shares",), ("simulate",)):
        assert run_subprocess(*args, "-f", str(TAS), "--strict", "-o", "json").returncode == 1, args


def test_a_plain_input_has_no_caveat_and_strict_exits_0():
    for args in (("explain", "ml/eval-llm"), ("explain", "--all"), ("preempt", "ml/eval-llm"), ("schedule",),
                 ("shares",)):
        assert json_of(*args, "-f", str(PLAIN), "--strict")["caveats"] == [], args
    proc = run_subprocess("explain", "ml/eval-llm", "-f", str(PLAIN), "-o", "plain")
    assert "caveat" not in proc.stdout


def test_strict_is_a_flag_without_a_value():
    proc = run_subprocess("schedule", "-f", str(PLAIN), "--strict", "true")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_a_feature_gate_switched_from_its_default_is_a_caveat():
    doc = json_of("schedule", "-f", str(PLAIN), "--feature-gates", "TASFailedNodeReplacement=false")
    assert without_message(doc["caveats"]) == [{"feature": "FeatureGates", "objects": ["--feature-gates"]}]


@pytest.mark.parametrize("command", ["explain", "preempt"])
def test_yunikorn_documents_carry_their_caveats(command):
    doc = json_of(command, "ml/trainer-0", "-f", str(GANG))
    schema(f"yunikorn-{command}").validate(doc)
    assert without_message(doc["caveats"]) == [{"feature": "GangScheduling", "objects": ["Pod/ml/trainer-0"]},
                                               {"feature": "InterPodConstraints", "objects": ["Pod/ml/trainer-0"]}]
    assert run_subprocess(command, "ml/trainer-0", "-f", str(GANG), "--strict").returncode == 1
