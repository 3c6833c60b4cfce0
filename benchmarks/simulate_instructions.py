"""Instructions (not seconds) that ``quotactl simulate`` spends on one cohort tree of Kueue's
large-scale shape: 100 ClusterQueues, 5,000 workloads, the size of one chunk of ``--jobs``.

Wall time on a shared machine drifts by a third from one half-hour to the next, more than most
single changes save; an instruction count (valgrind's cachegrind) is the same to 0.2 % run after
run.  Prints the count of the simulation alone (the run minus the same process stopped before it)
and the ratio to a floor measured the same way: ``json.load`` of the run's own ``-o json`` output.

    .venv/bin/python benchmarks/simulate_instructions.py            # needs valgrind on PATH
    .venv/bin/python benchmarks/simulate_instructions.py --cohorts 2
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LARGE = ROOT / "fixtures" / "simulate" / "kueue-large-scale" / "generator.yaml"

# Builds the model, then (unless "model" is given) runs the simulation once, in one process.
RUN = """
import sys
from datetime import datetime, timezone
from quotactl.kueue.options import EngineOptions
from quotactl.model.gc_pause import fewer_gc_pauses
from quotactl.model.kueue import build_cluster
from quotactl.simulate.generated import generated_objects
from quotactl.simulate.generator import read_generator
from quotactl.simulate.run import SimulationOptions, simulate
t0 = datetime(2026, 3, 2, 9, tzinfo=timezone.utc)
with fewer_gc_pauses():
    cluster = build_cluster(generated_objects(read_generator(sys.argv[1]), t0))
    if sys.argv[2] != "model":
        simulate(cluster, EngineOptions(), SimulationOptions(jobs=1), t0=t0)
"""
FLOOR = "import json, sys; json.load(open(sys.argv[1]))"


def instructions(code: str, *args: str) -> int:
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, check=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if m is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cohorts", type=int, default=1, help="cohort trees of the large-scale shape (default 1)")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on PATH (Debian: apt-get install valgrind)")
    text = re.sub(r"(?m)^(\s*- className: cohort\n\s*count:) \d+", rf"\1 {a.cohorts}", LARGE.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "generator.yaml"
        config.write_text(text)
        report = Path(tmp) / "report.json"
        with report.open("w") as f:
            subprocess.run([sys.executable, "-m", "quotactl", "simulate", "--generator", str(config), "-o", "json",
                            "--jobs", "1"], stdout=f, cwd=ROOT, check=True)
        model = instructions(RUN, str(config), "model")
        run = instructions(RUN, str(config), "run")
        floor = instructions(FLOOR, str(report)) - instructions("pass")
    engine = run - model
    print(f"{a.cohorts} cohort tree(s) of the large-scale shape: simulation {engine / 1e9:.3f} G instructions "
          f"(model and start-up {model / 1e9:.3f} G); {engine / floor:.1f}x the floor "
          f"(json.load of its {report.name}: {floor / 1e9:.3f} G)")


if __name__ == "__main__":
    main()
