"""Admission checks and WaitForPodsReady against the plain run, side by side (issue 28's performance
line): Kueue's baseline generator (fixtures/simulate/kueue-baseline) written out as one input file,
once as it is and once with every ClusterQueue behind a ProvisioningRequest-style AdmissionCheck
that answers Ready 30 s after each reservation (``quotactl.io/outcome: Ready@30s``) and
waitForPodsReady on (v1beta1 ``enable: true``, Kueue's defaults otherwise); each run is

    quotactl simulate -f FILE -o json --jobs 1

as a child process (one process both times: a run with checks is never split), best of --runs.
It prints both wall times, their ratio (the target is at most 1.5) and the admissions of each run.

    .venv/bin/python benchmarks/simulate_lifecycle.py --runs 2

Run by hand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.simulate_kueue import QUOTACTL, best  # noqa: E402
from quotactl.kueue.scheduler import DEFAULT_START  # noqa: E402
from quotactl.simulate.generated import generated_objects  # noqa: E402
from quotactl.simulate.generator import read_generator  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "fixtures" / "simulate" / "kueue-baseline" / "generator.yaml"
CHECK = "provisioning"


def scenario_items() -> list[dict]:
    """The generator's objects and workloads, as the input file holds them."""
    return [o.data for o in generated_objects(read_generator(str(GENERATOR)), DEFAULT_START)]


def with_checks(items: list[dict]) -> list[dict]:
    """Every ClusterQueue behind the check, its AdmissionCheck, and waitForPodsReady on."""
    out = []
    for item in items:
        if item.get("kind") == "ClusterQueue":
            spec = {**item.get("spec", {}), "admissionChecksStrategy": {"admissionChecks": [{"name": CHECK}]}}
            item = {**item, "spec": spec}
        out.append(item)
    check = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "AdmissionCheck",
             "metadata": {"name": CHECK, "annotations": {"quotactl.io/outcome": "Ready@30s"}},
             "spec": {"controllerName": "kueue.x-k8s.io/provisioning-request"},
             "status": {"conditions": [{"type": "Active", "status": "True", "reason": "Active", "message": "",
                                        "lastTransitionTime": "2026-03-02T09:00:00Z"}]}}
    config = {"apiVersion": "config.kueue.x-k8s.io/v1beta1", "kind": "Configuration",
              "waitForPodsReady": {"enable": True}}
    return [config, check, *out]


def write(path: Path, items: list[dict]) -> Path:
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    return path


def admissions(path: Path) -> tuple[int, int]:
    doc = json.loads(path.read_text())
    rows = doc["workloads"]
    return sum(len(r["admissions"]) for r in rows), sum(len(r.get("admittedAt", r["admissions"])) for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=2, help="best of N runs (default 2)")
    args = ap.parse_args()
    items = scenario_items()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        inputs = {"plain": write(t / "plain.json", items),
                  "checks+podsready": write(t / "checks.json", with_checks(items))}
        walls = {}
        for name, path in inputs.items():
            out = t / f"{name}.out.json"
            child = best([*QUOTACTL, "simulate", "-f", str(path), "-o", "json", "--jobs", "1"], args.runs, out)
            if child.code != 0:
                print(f"{name}: exit {child.code}: {child.stderr.strip()}")
                return 1
            reserved, admitted = admissions(out)
            walls[name] = child.wall
            print(f"{name:18} wall {child.wall:7.2f} s  cpu {child.cpu:7.2f} s  rss {child.rss_mib:6.0f} MiB  "
                  f"reservations {reserved}  admitted {admitted}")
        print(f"ratio (checks+podsready / plain): {walls['checks+podsready'] / walls['plain']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
