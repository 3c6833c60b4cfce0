"""``quotactl preempt`` and ``quotactl shares`` through the CLI: exit codes, input errors,
dialect dispatch (YuniKorn input goes to the YuniKorn engine), what-if pins, piped output."""

from __future__ import annotations

import json

from tests.helpers import CASES, FIXTURES, run_cli, run_subprocess

STORY3 = str(FIXTURES / "kep-1714-story3")
CLUSTER = str(FIXTURES / "cluster")
YK_CASE = CASES / "yunikorn-preempt" / "check-queue-guarantees-ask-too-large"


def test_preempt_json_contract_minimum():
    r = run_cli("preempt", "ml/eval-llm", "-f", CLUSTER, "--output", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {"version", "workload", "clusterQueue", "representativeMode", "victims", "message"} <= set(doc)
    assert doc["version"] == 1 and doc["representativeMode"] == "Preempt"
    assert all({"workload", "clusterQueue", "priority", "reason"} <= set(v) for v in doc["victims"])


def test_preempt_name_without_namespace_and_unknown_names():
    assert run_cli("preempt", "eval-llm", "-f", CLUSTER, "-o", "json").exit_code == 0
    r = run_cli("preempt", "ml/eval-lm", "-f", CLUSTER)
    assert r.exit_code == 2 and "did you mean ml/eval-llm" in r.stderr


def test_preempt_usage_errors():
    assert run_cli("preempt", "x").exit_code == 2  # no input
    r = run_cli("preempt", "ml/eval-llm", "-f", CLUSTER, "--direct")
    assert r.exit_code == 2 and "--direct is for YuniKorn" in r.stderr
    r = run_cli("preempt", "ml/eval-llm", "-f", CLUSTER, "--flavor", "nonsense")
    assert r.exit_code == 2 and "[PODSET:]RESOURCE=FLAVOR" in r.stderr
    r = run_cli("preempt", "ml/eval-llm", "-f", CLUSTER, "--flavor", "nvidia.com/gpu=spot")
    assert r.exit_code == 2 and "not in ClusterQueue team-ml's resource group" in r.stderr


def test_preempt_rejects_mixed_dialects():
    r = run_cli("preempt", "default/alloc3", "-f", CLUSTER, "-f", str(YK_CASE / "queues.yaml"))
    assert r.exit_code == 2 and "configuration of both Kueue" in r.stderr and "YuniKorn" in r.stderr


def test_preempt_dispatches_yunikorn_input():
    r = run_cli("preempt", "default/alloc3", "-f", str(YK_CASE / "queues.yaml"), "-f", str(YK_CASE / "state.yaml"),
                "--direct", "--output", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["version"] == 1 and doc["placed"] is False and doc["victims"] == []


def test_preempt_admitted_workload_is_a_result():
    r = run_cli("preempt", "ml/finetune-llm", "-f", CLUSTER, "-o", "json")
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["victims"] == [] and doc["blocking"]["rule"] == "NotPending"


def test_preempt_plain_when_piped():
    p = run_subprocess("preempt", "story3/2a-next", "-f", STORY3)
    assert p.returncode == 0, p.stderr
    assert "Why nothing is preempted" in p.stdout and "FairSharingStrategy" in p.stdout
    assert "\x1b[" not in p.stdout


def test_fair_sharing_flag_overrides_the_configuration():
    on = json.loads(run_cli("preempt", "story3/2a-next", "-f", STORY3, "-o", "json").stdout)
    off = json.loads(run_cli("preempt", "story3/2a-next", "-f", STORY3, "--no-fair-sharing", "-o", "json").stdout)
    assert on["fairSharing"] is True and off["fairSharing"] is False
    assert off["blocking"]["rule"] != "FairSharingStrategy"


def test_shares_cli():
    r = run_cli("shares", "-f", STORY3, "-o", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [n["name"] for n in doc["nodes"]][:3] == ["org", "c1", "team-1a"]
    assert [h["order"] for h in doc["heads"]] == [1, 2, 3, 4]
    r = run_cli("shares", "-f", CLUSTER, "--cohort", "research", "-o", "json")
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["nodes"][0]["name"] == "org" and doc["fairSharing"] is False
    assert [h["order"] for h in doc["heads"]] == list(range(1, len(doc["heads"]) + 1))
    assert run_cli("shares", "-f", CLUSTER, "--cohort", "nope").exit_code == 2
    assert run_cli("shares", "-f", str(YK_CASE / "queues.yaml")).exit_code == 2
    assert run_cli("shares").exit_code == 2
    p = run_subprocess("shares", "-f", STORY3, "--no-heads")
    assert p.returncode == 0 and "team-1c" in p.stdout and "Queue heads" not in p.stdout
