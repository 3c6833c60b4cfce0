"""``quotactl explain`` / ``preempt`` for YuniKorn through the command line (the real CLI where the
command is wired, the harness otherwise): exit codes, errors, JSON schemas, every output format."""

from __future__ import annotations

import json

import jsonschema
import pytest

from quotactl.cli.yunikorn_cmds import run_explain, run_preempt
from quotactl.load.objects import load
from tests.helpers import CASES, ROOT, run_cli
from tests.yunikorn.harness import cli, cli_json

CLEAN = ["-f", "fixtures/yunikorn/clean/queues.yaml", "-f", "fixtures/yunikorn/clean/state.yaml"]
SCHEMAS = {name: jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / "output" / f"yunikorn-{name}.json")
                                                            .read_text()))
           for name in ("explain", "preempt")}
PREEMPT_CASES = sorted(p.parent for s in ("yunikorn-preempt", "yunikorn-diff-preempt")
                       for p in (CASES / s).glob("*/case.json"))
FIXTURE_PODS = ["analytics/report-gen-1", "research/train-b-0", "batch/etl-20", "batch/etl-3", "prometheus-0"]


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    monkeypatch.chdir(ROOT)


def _case_args(case):
    spec = json.loads((case / "case.json").read_text())
    return spec["workload"], ["-f", str(case / "queues.yaml"), "-f", str(case / "state.yaml")], spec


@pytest.mark.parametrize("case", PREEMPT_CASES, ids=[c.name for c in PREEMPT_CASES])
def test_json_documents_match_their_schemas(case):
    pod, files, _ = _case_args(case)
    for command in ("explain", "preempt"):
        for extra in ([], ["--direct"]):
            if command == "explain" and extra:
                continue
            doc = cli_json([command, pod, *files, *extra, "--output", "json"])
            SCHEMAS[command].validate(doc)
            assert doc["version"] == 1 and doc["workload"] == pod


@pytest.mark.parametrize("pod", FIXTURE_PODS)
def test_fixture_pods_in_every_format(pod):
    for command in ("explain", "preempt"):
        doc = cli_json([command, pod, *CLEAN, "--output", "json"])
        SCHEMAS[command].validate(doc)
        for fmt in ("plain", "table"):
            code, out = cli([command, pod, *CLEAN, "--output", fmt])
            assert code == 0 and doc["workload"] in out


def test_explain_is_wired_into_the_real_cli():
    result = run_cli("explain", "analytics/report-gen-1", *CLEAN, "--output", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    SCHEMAS["explain"].validate(doc)
    assert doc["placed"] is True and doc["node"] == "cpu-1"
    assert [v["workload"] for v in doc["victims"]] == ["batch/etl-6"]


def test_fixture_outcomes():
    report = cli_json(["preempt", "analytics/report-gen-1", *CLEAN, "--output", "json"])
    assert report["result"] == "Reserved" and report["representativeMode"] == "Preempt"
    assert report["preemption"]["path"] == "B" and report["preemption"]["fitsAfterVictims"] is True
    research = cli_json(["preempt", "research/train-b-0", *CLEAN, "--output", "json"])
    assert research["refusal"] == "Preemption queue guarantees check failed"
    assert research["preemption"]["fence"] == "root.tenants.research"
    assert research["allocationLog"][-1] == "Not enough queue quota"
    batch = cli_json(["explain", "batch/etl-20", *CLEAN, "--output", "json"])
    assert batch["reason"] == "PreemptionGuaranteesFailed" and batch["placed"] is False
    running = cli_json(["preempt", "batch/etl-3", *CLEAN, "--output", "json"])
    assert running["status"] == "Running" and running["placed"] and running["node"] == "cpu-1"
    assert running["victims"] == []
    direct = cli_json(["preempt", "analytics/report-gen-1", *CLEAN, "--direct", "--output", "json"])
    assert direct["mode"] == "direct" and direct["preemption"]["path"] == "direct"


def _run(fn, *args, **kw):
    loaded = load(list(args[1]), fast_json=True)
    return fn(loaded, args[0], "json", **kw)


def test_unknown_ambiguous_and_foreign_pods(capsys):
    files = [CLEAN[1], CLEAN[3]]
    assert _run(run_preempt, "batch/etl-99", files) == 2
    err = capsys.readouterr().err
    assert "no pod 'batch/etl-99'" in err and "did you mean" in err and "batch/etl-9" in err
    assert _run(run_explain, "kube-system/coredns-7db6d8ff4d-x2x8q", files) == 2
    assert "default-scheduler" in capsys.readouterr().err
    assert _run(run_explain, "", files) == 2
    assert _run(run_preempt, "report-gen-1", files) == 0  # a unique name needs no namespace
    capsys.readouterr()


def test_ambiguous_name(tmp_path, capsys):
    state = (ROOT / CLEAN[3]).read_text()
    other = state.replace("namespace: batch", "namespace: batch2")
    (tmp_path / "a.yaml").write_text(state)
    (tmp_path / "b.yaml").write_text(other)
    files = [CLEAN[1], str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]
    assert _run(run_explain, "etl-20", files) == 2
    assert "ambiguous" in capsys.readouterr().err


def test_no_pods_is_an_input_error(capsys):
    assert _run(run_explain, "x/y", [CLEAN[1]]) == 2
    assert "no Pod objects" in capsys.readouterr().err


def test_an_invalid_config_is_still_evaluated(tmp_path):
    case = CASES / "yunikorn-diff-preempt" / "seed1099-victims-2"
    text = (case / "queues.yaml").read_text().replace("memory: 9728Mi", "memory: 99Gi")  # guaranteed > max
    (tmp_path / "queues.yaml").write_text(text)
    doc = cli_json(["preempt", "default/pending-team1-ml1", "-f", str(tmp_path / "queues.yaml"),
                    "-f", str(case / "state.yaml"), "--output", "json"])
    assert any("YuniKorn would reject this config" in n for n in doc["notes"])


def test_queues_with_state_shows_live_priorities():
    result = run_cli("queues", *CLEAN, "--output", "json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json.loads((ROOT / "schemas/output/queues.json").read_text())).validate(doc)
    cfg = doc["configs"][0]
    assert cfg["live"]["pods"] == 27 and cfg["live"]["dynamicQueues"][0]["path"] == "root.tenants.ml-team"
    tenants = cfg["partitions"][0]["root"]["queues"][1]
    assert tenants["live"]["currentPriority"] == 100 and tenants["live"]["rank"] == 1
    analytics = tenants["queues"][1]["live"]
    assert (analytics["currentPriority"], analytics["exposedPriority"], analytics["rank"]) == (10, 0, 2)
    plain = run_cli("queues", *CLEAN, "--output", "plain").stdout
    assert "prionow=10_->_0_(#2)" in plain
