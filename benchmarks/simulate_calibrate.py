"""The calibration of ``--cadence kueue-harness``: a grid search over the cadence's parameters,
both of Kueue's published scheduler-performance runs per grid point, one loss for both.

For each point of the grid (the cartesian product of the values given) it simulates
fixtures/simulate/kueue-baseline and kueue-large-scale in this process (no CLI, no JSON
document) and compares the per-class mean time to admission and the usage of nominal quota with
Kueue's figures (fixtures/simulate/kueue-published.json).  The loss is the mean relative error
over the six class means (three classes x two runs); the usage error is printed beside it and
breaks ties (``--usage-weight`` folds it into the loss).  docs/simulate-calibration.md records
the grids run and what they gave.

    .venv/bin/python benchmarks/simulate_calibrate.py --interval 0.1,0.5,1,2,5
    .venv/bin/python benchmarks/simulate_calibrate.py --interval 0.05,0.1 --write-rate 50 \\
        --write-burst 100 --requeue-batch 1 --jobs 2
    .venv/bin/python benchmarks/simulate_calibrate.py --preset kueue-harness

Values are seconds (rates: writes per second; 0 turns a mechanism off).  Run by hand, under
``nice``: each point costs a baseline run and a large-scale run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quotactl.kueue.options import engine_options  # noqa: E402
from quotactl.model.kueue import build_cluster  # noqa: E402
from quotactl.simulate.cadence import PRESETS, Cadence  # noqa: E402
from quotactl.simulate.clock import US, parse_instant  # noqa: E402
from quotactl.simulate.generated import generated_objects  # noqa: E402
from quotactl.simulate.generator import read_generator  # noqa: E402
from quotactl.simulate.run import SimulationOptions, simulate  # noqa: E402

FIXTURES = ROOT / "fixtures" / "simulate"
RUNS = ("kueue-baseline", "kueue-large-scale")
CLASSES = ("large", "medium", "small")
T0 = "2026-01-01T00:00:00Z"
SECONDS = {"interval", "admission_cost", "requeue_batch"}  # Cadence fields given in seconds here


@dataclass(frozen=True)
class Figures:
    waits: dict  # class -> mean seconds
    usage: float  # percent of nominal quota
    end: float  # seconds
    seconds: float  # wall time of the simulation


def published() -> dict[str, Figures]:
    runs = json.loads((FIXTURES / "kueue-published.json").read_text())["runs"]
    return {name: Figures(runs[name]["meanTimeToAdmissionSeconds"], runs[name]["usagePercent"]["cq"],
                          runs[name]["wallSeconds"], 0.0) for name in RUNS}


def measure(name: str, cadence: Cadence) -> Figures:
    """One simulation of the run ``name`` with ``cadence``, as ``quotactl simulate --generator``."""
    start = time.perf_counter()
    t0 = parse_instant(T0)
    cluster = build_cluster(generated_objects(read_generator(str(FIXTURES / name / "generator.yaml")), t0))
    options = engine_options(cluster, fair_sharing=None, feature_gates={}, admission_checks={})
    r = simulate(cluster, options, SimulationOptions(cadence=cadence), t0=t0)
    waits = {c.name: c.wait.mean for c in r.classes}
    fractions = [q.usage.get("cpu") for q in r.cluster_queues if q.usage.get("cpu") is not None]
    # recorder.go CQGroupSummary: used cpu x time over nominal x window, summed over the CQs of the
    # class; every CQ here has the same nominal quota and window, so the mean of the fractions
    return Figures(waits, 100 * sum(fractions) / len(fractions), r.end / US, time.perf_counter() - start)


def errors(got: Figures, want: Figures) -> tuple[list[float], float]:
    """Relative errors of the class means, and of the usage."""
    return ([abs(got.waits[c] / want.waits[c] - 1) for c in CLASSES], abs(got.usage / want.usage - 1))


def loss(results: dict[str, Figures], want: dict[str, Figures], usage_weight: float) -> tuple[float, float]:
    class_errors, usage_errors = [], []
    for name in RUNS:
        ce, ue = errors(results[name], want[name])
        class_errors += ce
        usage_errors.append(ue)
    mre = sum(class_errors) / len(class_errors)
    usage = sum(usage_errors) / len(usage_errors)
    return mre + usage_weight * usage, usage


def cadence_of(point: dict) -> Cadence:
    values = {k: round(v * US) if k in SECONDS else v for k, v in point.items()}
    return Cadence(basis="calibration grid", **values)


def run_point(point: dict) -> tuple[dict, dict[str, Figures]]:
    cadence = cadence_of(point)
    return point, {name: measure(name, cadence) for name in RUNS}


def row(point: dict, results: dict[str, Figures], want: dict[str, Figures], usage_weight: float) -> str:
    total, usage = loss(results, want, usage_weight)
    params = " ".join(f"{k}={v:g}" for k, v in point.items())
    cells = []
    for name in RUNS:
        r = results[name]
        cells.append("/".join(f"{r.waits[c]:.1f}" for c in CLASSES) + f" u{r.usage:.1f}% end{r.end:.0f}s")
    took = sum(r.seconds for r in results.values())
    return f"{params:<58} loss {total:6.3f} usage-err {usage:5.3f} | " + " | ".join(cells) + f" ({took:.0f} s)"


def grid(args) -> list[dict]:
    axes = {f.name: getattr(args, f.name) for f in fields(Cadence) if getattr(args, f.name, None) is not None}
    names = list(axes)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*(axes[n] for n in names))]


def floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--interval", type=floats, help="cycle intervals, seconds (comma-separated)")
    ap.add_argument("--admission-cost", dest="admission_cost", type=floats, help="seconds per admission")
    ap.add_argument("--write-rate", dest="write_rate", type=floats, help="Workload writes per second")
    ap.add_argument("--write-burst", dest="write_burst", type=floats, help="token bucket size")
    ap.add_argument("--requeue-batch", dest="requeue_batch", type=floats, help="seconds (requeueBatchPeriod)")
    ap.add_argument("--create-rate", dest="create_rate", type=floats, help="Workload creates per second")
    ap.add_argument("--create-burst", dest="create_burst", type=floats, help="the creating client's burst")
    ap.add_argument("--preset", choices=sorted(PRESETS), help="the one point of a named preset")
    ap.add_argument("--usage-weight", type=float, default=0.0, help="weight of the usage error in the loss")
    ap.add_argument("--jobs", type=int, default=1, help="grid points in parallel (processes)")
    args = ap.parse_args()
    if args.preset:
        c = PRESETS[args.preset]
        points = [{f.name: (getattr(c, f.name) / US if f.name in SECONDS else getattr(c, f.name))
                   for f in fields(Cadence) if f.name != "basis"}]
    else:
        points = grid(args)
    if not points:
        ap.error("give at least one grid axis (e.g. --interval 0.1,1) or --preset")
    for p in points:
        for k in list(p):
            if k in ("write_burst", "create_burst"):
                p[k] = int(p[k])
    want = published()
    print("published: " + " | ".join(f"{n}: " + "/".join(f"{want[n].waits[c]:.1f}" for c in CLASSES)
                                     + f" u{want[n].usage:.1f}%" for n in RUNS) + "   (large/medium/small s)")
    best = None
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for point, results in pool.map(run_point, points):
            print(row(point, results, want, args.usage_weight), flush=True)
            score = loss(results, want, args.usage_weight)
            if best is None or score < best[0]:
                best = (score, point)
    if len(points) > 1:
        print(f"best: {' '.join(f'{k}={v:g}' for k, v in best[1].items())} (loss {best[0][0]:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
