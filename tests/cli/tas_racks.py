"""Issue 27's racks (tests/kueue/tas/data/racks.yaml) for the TAS gate tests through the CLI: the
state written with a Configuration that sets feature gates, and explain's topology of a pod set."""

from __future__ import annotations

import json

import yaml

from tests.helpers import ROOT, run_subprocess

RACKS = ROOT / "tests" / "kueue" / "tas" / "data" / "racks.yaml"


def racks() -> list[dict]:
    return list(yaml.safe_load_all(RACKS.read_text()))


def write_state(tmp_path, docs: list[dict], gates: dict[str, bool]) -> str:
    """``docs`` after a Configuration setting ``gates`` (none when empty), as one file."""
    if gates:
        docs = [{"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
                 "featureGates": gates}] + docs
    out = tmp_path / "state.yaml"
    out.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return str(out)


def explained_topology(path: str, workload: str = "default/train", pod_set: str = "main") -> dict:
    result = run_subprocess("explain", workload, "-f", path, "-o", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["topology"][pod_set]
