"""Kueue's scheduler-performance configs through ``quotactl simulate``, next to Kueue's own figures.

For each config (fixtures/simulate/kueue-baseline, kueue-large-scale, kueue-tas) and each mode (the
default fixpoint mode, with one worker process per CPU for independent cohort trees; the same with
``--jobs 1``, skipped for the TAS config, whose trees share the nodes and are never split; and
``--cadence kueue-harness``) it runs

    quotactl simulate --generator FILE -o json [--cadence kueue-harness]

as a child process and prints its wall time, CPU time and peak RSS (the child's rusage), the ratio
of its wall time to a floor measured in the same run (a bare ``json.load`` of the document it
wrote, in a child process of its own), and the per-class mean time to admission and the usage of
nominal quota beside the figures Kueue publishes (fixtures/simulate/kueue-published.json).

    .venv/bin/python benchmarks/simulate_kueue.py
    .venv/bin/python benchmarks/simulate_kueue.py --only baseline --runs 3
    .venv/bin/python benchmarks/simulate_kueue.py --only tas --no-fixpoint
    .venv/bin/python benchmarks/simulate_kueue.py --no-cadence

Run by hand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "simulate"
PUBLISHED = FIXTURES / "kueue-published.json"
QUOTACTL = [sys.executable, "-m", "quotactl"]
# fixpoint: the default, with --jobs 0 (one worker per CPU for independent cohort trees)
MODES = {"fixpoint": [], "fixpoint --jobs 1": ["--jobs", "1"], "kueue-harness": ["--cadence", "kueue-harness"]}
JSON_LOAD = "import json, sys; json.load(open(sys.argv[1]))"
CONFIGS = ("baseline", "large-scale", "tas")
SINGLE_PROCESS = {"kueue-tas"}  # never split (run.simulate): --jobs 1 would repeat the default run


@dataclass(frozen=True)
class Child:
    wall: float  # seconds
    cpu: float  # user + system seconds
    rss_mib: float  # peak resident set
    code: int
    stderr: str


def run_child(argv: list[str], stdout_path: Path | None = None) -> Child:
    """Run one child; its own rusage (os.wait4) gives CPU time and peak RSS."""
    env = {**os.environ, "NO_COLOR": "1"}
    with tempfile.TemporaryFile() as err, open(stdout_path or os.devnull, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return Child(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), text)


def best(argv: list[str], runs: int, stdout_path: Path | None = None) -> Child:
    results = [run_child(argv, stdout_path) for _ in range(runs)]
    ok = [r for r in results if r.code == 0] or results
    return min(ok, key=lambda r: r.wall)


def simulate_available() -> str | None:
    """None when ``quotactl simulate`` exists, else why not."""
    probe = run_child([*QUOTACTL, "simulate", "--help"])
    if probe.code == 0:
        return None
    # Typer draws its usage errors in a box: keep the text lines only.
    lines = [line.strip(" \u2502\u256d\u256e\u2570\u256f\u2500") for line in probe.stderr.splitlines()]
    said = [line for line in lines if line and not line.startswith(("Usage:", "Try "))]
    return f"`quotactl simulate --help` exited {probe.code}: {said[-1] if said else '(no message)'}"


def class_waits(doc: dict, names) -> dict[str, float | None]:
    classes = doc.get("classes") or {}
    return {c: ((classes.get(c) or {}).get("wait") or {}).get("mean") for c in names}


def usage_percent(doc: dict) -> float | None:
    """Kueue sums used cpu·time over the CQs of class ``cq`` and divides by their summed nominal
    quota x the window (recorder.go CQGroupSummary); the CQs here share one nominal quota and
    one window, so that is the mean of the per-CQ fractions."""
    fractions = [(q.get("usage") or {}).get("cpu") for q in (doc.get("clusterQueues") or {}).values()]
    fractions = [f for f in fractions if isinstance(f, (int, float))]
    return 100 * sum(fractions) / len(fractions) if fractions else None


def fmt(value: float | None, unit: str = "") -> str:
    return "n/a" if value is None else f"{value:,.1f}{unit}"


def report(name: str, mode: str, sim: Child, floor: Child | None, doc: dict | None, published: dict) -> None:
    ratio = f"{sim.wall / floor.wall:.1f}x the floor ({floor.wall:.2f} s json.load)" if floor and floor.wall else ""
    print(f"\n{name}, {mode}: wall {sim.wall:.2f} s, CPU {sim.cpu:.2f} s, peak RSS {sim.rss_mib:.0f} MiB  {ratio}")
    if doc is None:
        return
    want = published["meanTimeToAdmissionSeconds"]
    waits = class_waits(doc, sorted(want))
    width = max(8, *map(len, want))
    print(f"  {'class':<{width}} {'simulated mean wait':>20} {'Kueue published':>16} {'ratio':>7}")
    for c in sorted(want):
        got = waits[c]
        share = f"{got / want[c]:.2f}" if got is not None and want.get(c) else ""
        print(f"  {c:<{width}} {fmt(got, ' s'):>20} {fmt(want.get(c), ' s'):>16} {share:>7}")
    print(f"  {'usage':<{width}} {fmt(usage_percent(doc), ' %'):>20} "
          f"{fmt(published['usagePercent']['cq'], ' %'):>16}")
    print(f"  simulated end {fmt(doc.get('end'), ' s')} (Kueue's run: {published['wallSeconds']:,.1f} s wall); "
          f"converged: {doc.get('converged')}; workloads: {len(doc.get('workloads') or []):,}")


def run_config(name: str, modes: list[str], runs: int, published: dict, tmp: Path) -> None:
    config = FIXTURES / name / "generator.yaml"
    for mode in modes:
        if name in SINGLE_PROCESS and mode == "fixpoint --jobs 1":
            continue
        out = tmp / f"{name}-{mode}.json"
        sim = best([*QUOTACTL, "simulate", "--generator", str(config), "-o", "json", *MODES[mode]], runs, out)
        if sim.code != 0:
            print(f"\n{name}, {mode}: quotactl simulate exited {sim.code} after {sim.wall:.2f} s")
            for line in sim.stderr.strip().splitlines()[-5:]:
                print(f"  {line}")
            continue
        floor = best([sys.executable, "-c", JSON_LOAD, str(out)], runs)
        with open(out) as fh:
            doc = json.load(fh)
        report(name, mode, sim, floor, doc, published)


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=CONFIGS, help="one config only")
    ap.add_argument("--runs", type=int, default=1, help="best of N runs (default 1)")
    ap.add_argument("--no-cadence", action="store_true", help="skip the --cadence kueue-harness runs")
    ap.add_argument("--no-fixpoint", action="store_true", help="only the --cadence kueue-harness runs")
    args = ap.parse_args()
    missing = simulate_available()
    if missing:
        print(f"simulate_kueue: `quotactl simulate` is not available in this checkout, so there is nothing to "
              f"measure yet ({missing}).", file=sys.stderr)
        return 1
    published = json.loads(PUBLISHED.read_text())["runs"]
    modes = [m for m in MODES if not (args.no_cadence and m == "kueue-harness")
             and not (args.no_fixpoint and m != "kueue-harness")]
    names = [f"kueue-{c}" for c in ((args.only,) if args.only else CONFIGS)]
    print(f"quotactl simulate on Kueue's scheduler-performance configs (best of {args.runs}; {cpus()} CPU(s)); "
          f"Kueue's figures from {PUBLISHED.relative_to(ROOT)}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            run_config(name, modes, max(1, args.runs), published[name], Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
