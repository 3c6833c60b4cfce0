"""Big inputs, each measured side by side with its floor in the same run (CPU time of a child
process, and its peak RSS), printed as ratios:

  start-up   `quotactl --version` and a one-file lint  vs  `python -c pass` (+ the file's parse),
             and vs `python -c "import typer"` + the parse (Typer imports pydantic)
  lint       120,000 ResourceFlavors in one YAML file  vs  a bare libyaml load of the same file
             (PyYAML's CSafeLoader when installed, else ruamel.yaml's C-backed safe load; printed)
  engines    explain / schedule on a 100,000-workload snapshot, YAML  vs  the same snapshot in JSON
             (floors: json.load, a bare libyaml load, and quotactl's block-YAML reader alone)
  yunikorn   preempt / explain / queues on 1,000 nodes, 10,000 queues, 10,000 pods  vs  json.load
             of the state

    .venv/bin/python benchmarks/any_size.py                 # everything (about 20 minutes)
    .venv/bin/python benchmarks/any_size.py --only lint --scale 0.25

Run by hand; nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import big_inputs

ROOT = big_inputs.ROOT
QUOTACTL = [sys.executable, "-m", "quotactl"]


def measure(argv: list[str], stdin=None) -> tuple[float, float, int]:
    """(CPU seconds, peak RSS in MiB, exit code) of one child process."""
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=stdin)
    _, status, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def best(argv: list[str], runs: int) -> tuple[float, float, int]:
    results = [measure(argv) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results), results[-1][2]


def python(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


LIBYAML_LOAD = """
import sys
try:
    import yaml
    loader = yaml.CSafeLoader
    docs = list(yaml.load_all(open(sys.argv[1]).read(), Loader=loader))
except ImportError:
    from ruamel.yaml import YAML
    docs = list(YAML(typ="safe", pure=False).load_all(open(sys.argv[1]).read()))
"""
FLOOR_NAME = """
try:
    import yaml
    print("PyYAML CSafeLoader (libyaml)" if yaml.__with_libyaml__ else "PyYAML (pure: no libyaml!)")
except ImportError:
    print("ruamel.yaml safe load, C parser")
"""
JSON_LOAD = "import json, sys; json.load(open(sys.argv[1]))"
BLOCK_LOAD = ("import sys; sys.path.insert(0, sys.argv[2]); from quotactl.load.blockyaml import parse_block; "
              "assert parse_block(open(sys.argv[1]).read(), 200) is not None")


def row(name: str, cpu: float, rss: float, floor: float | None = None, rc: int | None = None) -> None:
    ratio = f"{cpu / floor:6.2f}x" if floor else "       "
    code = f"  rc {rc}" if rc is not None else ""
    print(f"  {name:<58} {cpu:8.2f} s {ratio} {rss:8.0f} MiB{code}")


def startup(tmp: Path, runs: int) -> None:
    print("start-up (best of", runs, "runs)")
    bare, rss, _ = best(python("pass"), runs)
    row("python -c pass (floor)", bare, rss)
    cpu, rss, rc = best([*QUOTACTL, "--version"], runs)
    row("quotactl --version", cpu, rss, bare, rc)
    one = ROOT / "fixtures" / "cluster" / "flavors.yaml"
    parse, _, _ = best(python(LIBYAML_LOAD, str(one)), runs)
    # Typer is a required dependency and imports pydantic to convert parameters: the second floor
    # is what any Typer CLI pays before its own code runs.
    with_typer, _, _ = best(python("import typer\n" + LIBYAML_LOAD, str(one)), runs)
    for argv in (["-o", "json"], []):
        cpu, rss, rc = best([*QUOTACTL, "lint", str(one), *argv], runs)
        shown = " ".join(argv) or "(piped: plain)"
        row(f"quotactl lint {one.name} {shown} (floor: python + parse {parse:.2f} s)", cpu, rss, parse, rc)
        row(f"  same, vs import typer + parse {with_typer:.2f} s", cpu, rss, with_typer)


def lint(tmp: Path, scale: float, runs: int) -> None:
    n = int(120_000 * scale)
    path = big_inputs.flavors(tmp, n)
    floor_name = subprocess.run(python(FLOOR_NAME), capture_output=True, text=True).stdout.strip()
    print(f"lint {n:,} ResourceFlavors, {path.stat().st_size / 2**20:.1f} MiB (best of {runs}); floor: {floor_name}")
    floor, rss, _ = best(python(LIBYAML_LOAD, str(path)), runs)
    row("bare load (floor)", floor, rss)
    cpu, rss, rc = best([*QUOTACTL, "lint", str(path), "-o", "json"], runs)
    row("quotactl lint -o json", cpu, rss, floor, rc)


def engines(tmp: Path, scale: float, runs: int) -> None:
    n = int(100_000 * scale)
    # Generated in a child: a child's peak RSS counts the memory of the process it was forked from.
    code = ("import sys; sys.path.insert(0, sys.argv[3]); import big_inputs, pathlib; "
            "print(big_inputs.kueue_snapshot(pathlib.Path(sys.argv[1]), int(sys.argv[2]))[2])")
    target = subprocess.run(python(code, str(tmp), str(n), str(ROOT / "benchmarks")), capture_output=True,
                            text=True, check=True).stdout.strip()
    ypath, jpath = tmp / f"snapshot-{n}.yaml", tmp / f"snapshot-{n}.json"
    print(f"engines on {n:,} workloads: YAML {ypath.stat().st_size / 2**20:.0f} MiB, "
          f"JSON {jpath.stat().st_size / 2**20:.0f} MiB (best of {runs})")
    jparse, rss, _ = best(python(JSON_LOAD, str(jpath)), runs)
    row("json.load of the JSON", jparse, rss)
    yparse, rss, _ = best(python(LIBYAML_LOAD, str(ypath)), runs)
    row("bare load of the YAML", yparse, rss, jparse)
    bparse, rss, rc = best(python(BLOCK_LOAD, str(ypath), str(ROOT)), runs)
    row("quotactl's block-YAML reader alone", bparse, rss, jparse, rc)
    for command in (["explain", target], ["schedule"]):
        json_cpu, rss, rc = best([*QUOTACTL, *command, "-f", str(jpath), "-o", "json"], runs)
        row(f"{command[0]} on JSON (floor of the YAML run)", json_cpu, rss, jparse, rc)
        cpu, rss, rc = best([*QUOTACTL, *command, "-f", str(ypath), "-o", "json"], runs)
        row(f"{command[0]} on YAML, vs the JSON run", cpu, rss, json_cpu, rc)


def yunikorn(tmp: Path, scale: float, runs: int) -> None:
    nodes, parents, leaves, pods = int(1000 * scale) or 1, 100, max(1, int(100 * scale)), int(10_000 * scale)
    qpath, spath = big_inputs.yunikorn_cluster(tmp, nodes, parents, leaves, pods)
    print(f"yunikorn: {nodes:,} nodes, {parents * leaves + parents + 1:,} queues, {pods:,} pods, "
          f"state {spath.stat().st_size / 2**20:.1f} MiB (best of {runs})")
    floor, rss, _ = best(python(JSON_LOAD, str(spath)), runs)
    row("json.load of the state (floor)", floor, rss)
    for command in (["preempt", "batch/ask", "-f", str(qpath), "-f", str(spath)],
                    ["explain", "batch/ask", "-f", str(qpath), "-f", str(spath)],
                    ["queues", str(qpath), str(spath)]):
        cpu, rss, rc = best([*QUOTACTL, *command, "-o", "json"], runs)
        row(f"quotactl {command[0]}", cpu, rss, floor, rc)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=("startup", "lint", "engines", "yunikorn"), action="append")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the default sizes")
    ap.add_argument("--runs", type=int, default=1)
    a = ap.parse_args()
    chosen = a.only or ["startup", "lint", "engines", "yunikorn"]
    with tempfile.TemporaryDirectory() as tmp:
        for name in chosen:
            if name == "startup":
                startup(Path(tmp), max(a.runs, 5))
            else:
                globals()[name](Path(tmp), a.scale, a.runs)


if __name__ == "__main__":
    main()
