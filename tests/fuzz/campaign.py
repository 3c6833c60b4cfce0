"""A fuzz campaign: inputs from a seed, three commands on each, failures minimised and kept.

Input ``i`` of seed ``s`` and the commands run on it depend on (s, i) only, so a campaign can be
split across workers or resumed and still makes the same runs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.mutate import Input, input_rng, make_input
from tests.fuzz.runner import Outcome, Run, execute, same_bytes, warm_up

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
RUNS_PER_INPUT = 3
RERUN_EVERY = 25  # one run in this many is run twice and must give the same bytes
MINIMISE_BUDGET = 60  # runs spent shrinking one failing input
MINIMISE_MAX_CPU = 2.0  # a failure slower than this is kept as found
COMPRESS_ABOVE = 64 * 1024  # regression inputs bigger than this are stored gzipped


def commands(rng: random.Random, inp: Input) -> list[Run]:
    """``lint`` in some format, and two other commands that fit the input's dialect (mostly)."""
    fmt = rng.choice(["table", "plain", "json", "sarif", "github"])
    runs = [_run(rng, ("lint", "{input}", "-o", fmt), fmt)]
    wl = rng.choice(inp.workloads) if inp.workloads and rng.random() < 0.8 else rng.choice(["default/x", "x"])
    human = rng.choice(["table", "plain", "json"])
    kueue = [
        ("explain", "--all", "-f", "{input}", "-o", human),
        ("explain", wl, "-f", "{input}", "-o", human),
        ("schedule", "-f", "{input}", "-o", human),
        ("preempt", wl, "-f", "{input}", "-o", human),
        ("shares", "-f", "{input}", "-o", human),
        ("diff", "--base", "{base}", "--head", "{input}", "-o", human),
        ("diff", "--base", "{input}", "--head", "{base}", "-f", "{input}", "-o", human),
        ("convert", "{input}", "--to", "v1beta2", "--check"),
        ("convert", "{input}", "--to", "v1beta2"),
    ]
    yunikorn = [
        ("queues", "-f", "{input}", "-o", rng.choice(["table", "tree", "plain", "json"])),
        ("preempt", wl, "-f", "{input}", "-o", human),
        ("explain", wl, "-f", "{input}", "-o", human),
    ]
    jobs = [
        ("workload", "-f", "{input}", "-o", rng.choice(["yaml", "json", "table"])),
        ("explain", "-f", "{input}", "-o", human),
        ("schedule", "-f", "{input}", "-o", human),
    ]
    own = {"kueue": kueue, "yunikorn": yunikorn, "jobs": jobs}[inp.dialect]
    everything = kueue + yunikorn + jobs
    for _ in range(RUNS_PER_INPUT - 1):
        args = rng.choice(own if rng.random() < 0.8 else everything)
        runs.append(_run(rng, args, args[-1]))
    return runs


def _run(rng: random.Random, args: tuple, fmt: str) -> Run:
    return Run(tuple(args), tty=fmt in ("table", "tree") and rng.random() < 0.5, columns=rng.choice([80, 120, 200]))


@dataclass
class Found:
    kind: str
    signature: str
    detail: str
    run: Run
    inp: Input
    index: int
    saved: str = ""


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    failures: int = 0
    cpu: float = 0.0
    fuzzer_errors: int = 0  # inputs the fuzzer itself failed to make or run (not quotactl's failures)
    kinds: Counter = field(default_factory=Counter)
    slowest: list = field(default_factory=list)  # (cpu, index, args)
    found: dict = field(default_factory=dict)  # signature -> Found (the first)


def write_files(inp: Input, workdir: Path) -> dict[str, Path]:
    files = {"input": workdir / inp.name, "base": workdir / ("base" + Path(inp.name).suffix)}
    files["input"].write_bytes(inp.data)
    files["base"].write_bytes(inp.base if inp.base is not None else inp.data)
    return files


def run_input(seed: int, index: int, workdir: Path, tally: Tally, save: bool, log) -> None:
    rng = input_rng(seed, index)
    inp = make_input(rng, index)
    files = write_files(inp, workdir)
    tally.inputs += 1
    for run in commands(rng, inp):
        outcome = execute(run, files, workdir)
        tally.runs += 1
        tally.cpu += outcome.cpu
        tally.slowest = sorted([*tally.slowest, (outcome.cpu, index, run.args[0])], reverse=True)[:5]
        if outcome.failure is None and rng.random() < 1 / RERUN_EVERY:
            again = execute(run, files, workdir)
            if again.failure is None and not same_bytes(outcome, again):
                outcome.failure, outcome.signature = "nondeterministic", f"nondeterministic:{run.args[0]}"
                outcome.detail = "a rerun gave different output"
        if outcome.failure is None:
            continue
        tally.failures += 1
        tally.kinds[outcome.failure] += 1
        log(f"FAIL {outcome.failure} input {index} {' '.join(run.args)} [{'; '.join(inp.mutations)}] "
            f"from {inp.origin}: {outcome.detail[:200]}")
        if outcome.signature not in tally.found:
            found = Found(outcome.failure, outcome.signature, outcome.detail, run, inp, index)
            tally.found[outcome.signature] = found
            if save:
                found.saved = save_regression(found, seed, workdir, outcome)
                log(f"  saved {found.saved}")


# -- minimising and keeping --------------------------------------------------------------------
def minimise(inp: Input, run: Run, signature: str, workdir: Path, first: Outcome) -> bytes:
    """A smaller input with the same failure signature: whole documents, then line chunks (ddmin),
    within ``MINIMISE_BUDGET`` runs; the input as found when the failure is slow."""
    if first.cpu > MINIMISE_MAX_CPU or run.args[0] == "diff" or first.failure == "nondeterministic":
        return inp.data
    budget = [MINIMISE_BUDGET]

    def still_fails(data: bytes) -> bool:
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        trial = Input(inp.name, data, inp.origin, base=inp.base)
        o = execute(run, write_files(trial, workdir), workdir)
        return o.signature == signature

    data = inp.data
    for sep in (b"\n---\n", b"\n"):
        chunks = data.split(sep)
        size = max(1, len(chunks) // 2)
        while size >= 1 and len(chunks) > 1 and budget[0] > 0:
            start, changed = 0, False
            while start < len(chunks) and budget[0] > 0:
                trial = chunks[:start] + chunks[start + size:]
                if trial and still_fails(sep.join(trial)):
                    chunks, changed = trial, True
                else:
                    start += size
            if not changed:
                size //= 2
        data = sep.join(chunks)
    return data


def save_regression(found: Found, seed: int, workdir: Path, outcome: Outcome) -> str:
    data = minimise(found.inp, found.run, found.signature, workdir, outcome)
    digest = hashlib.sha256(data + json.dumps(found.run.to_json()).encode()).hexdigest()[:10]
    suffix = Path(found.inp.name).suffix
    stem = f"{found.kind}-{digest}"
    REGRESSIONS.mkdir(exist_ok=True)
    name = f"{stem}{suffix}"
    if len(data) > COMPRESS_ABOVE:
        name += ".gz"
        (REGRESSIONS / name).write_bytes(gzip.compress(data, mtime=0))
    else:
        (REGRESSIONS / name).write_bytes(data)
    meta = {"input": name, **found.run.to_json(), "kind": found.kind, "signature": found.signature,
            "detail": found.detail[:300], "seed": seed, "index": found.index, "origin": found.inp.origin,
            "mutations": found.inp.mutations}
    if "{base}" in found.run.args:
        base = found.inp.base or b""
        meta["base"] = f"{stem}.base{suffix}.gz"
        (REGRESSIONS / meta["base"]).write_bytes(gzip.compress(base, mtime=0))
    (REGRESSIONS / f"{stem}.args.json").write_text(json.dumps(meta, indent=2, ensure_ascii=True) + "\n")
    return name


def regression_cases() -> list[tuple[str, Run, dict[str, bytes], str]]:
    """Every kept failure: (name, run, file name -> bytes, input file name)."""
    out = []
    for meta_path in sorted(REGRESSIONS.glob("*.args.json")):
        meta = json.loads(meta_path.read_text())
        contents = {"input": _read(REGRESSIONS / meta["input"])}
        if "base" in meta:
            contents["base"] = _read(REGRESSIONS / meta["base"])
        out.append((meta_path.name.removesuffix(".args.json"), Run.from_json(meta), contents, meta["input"].removesuffix(".gz")))
    return out


def _read(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def run_regression(run: Run, contents: dict[str, bytes], input_name: str, workdir: Path) -> Outcome:
    suffix = Path(input_name).suffix
    files = {"input": workdir / f"input{suffix}", "base": workdir / f"base{suffix}"}
    files["input"].write_bytes(contents["input"])
    files["base"].write_bytes(contents.get("base", contents["input"]))
    return execute(run, files, workdir)


# -- a campaign, split across workers ----------------------------------------------------------
def campaign(seed: int, inputs: int, start: int = 0, jobs: int = 1, save: bool = True, quiet: bool = False,
             max_seconds: float | None = None) -> Tally:
    """Inputs ``start`` .. ``start + inputs - 1`` of ``seed``; with ``max_seconds``, no input is
    started after that much wall time (the tally says how many were run)."""
    warm_up()
    began = time.monotonic()
    stop_at = began + max_seconds if max_seconds else None

    def log(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="quotactl-fuzz-") as tmp:
        if jobs <= 1:
            tally = Tally()
            _worker(seed, range(start, start + inputs), Path(tmp), tally, save, log, began, stop_at)
            return tally
        pids = []
        for w in range(jobs):
            pid = os.fork()
            if pid == 0:
                tally = Tally()
                workdir = Path(tmp) / f"w{w}"
                workdir.mkdir()
                code = 0
                try:
                    _worker(seed, range(start + w, start + inputs, jobs), workdir, tally, save, log, began, stop_at)
                    (Path(tmp) / f"w{w}.json").write_text(json.dumps(_tally_json(tally)))
                except BaseException:
                    import traceback

                    traceback.print_exc()
                    code = 1
                os._exit(code)
            pids.append(pid)
        for pid in pids:
            os.waitpid(pid, 0)
        parts = [Path(tmp) / f"w{w}.json" for w in range(jobs)]
        for part in parts:
            if not part.exists():
                log(f"FUZZER ERROR: worker {part.stem} died; its inputs are not counted")
        return _merge([json.loads(p.read_text()) for p in parts if p.exists()])


def _worker(seed, indices, workdir: Path, tally: Tally, save, log, began, stop_at=None) -> None:
    for n, index in enumerate(indices, 1):
        if stop_at is not None and time.monotonic() > stop_at:
            log(f"... time is up after {tally.inputs} inputs of this worker")
            break
        try:
            run_input(seed, index, workdir, tally, save, log)
        except Exception as exc:  # a bug of the fuzzer itself: say so, go on with the next input
            tally.fuzzer_errors += 1
            log(f"FUZZER ERROR input {index}: {type(exc).__name__}: {exc}"[:300])
        if n % 100 == 0:
            log(f"... {tally.inputs} inputs, {tally.runs} runs, {tally.failures} failures, "
                f"{time.monotonic() - began:.0f}s")


def _tally_json(t: Tally) -> dict:
    return {"inputs": t.inputs, "runs": t.runs, "failures": t.failures, "cpu": t.cpu, "kinds": dict(t.kinds),
            "fuzzer_errors": t.fuzzer_errors,
            "slowest": t.slowest, "signatures": sorted(t.found)}


def _merge(parts: list[dict]) -> Tally:
    t = Tally()
    for p in parts:
        t.inputs += p["inputs"]
        t.runs += p["runs"]
        t.failures += p["failures"]
        t.cpu += p["cpu"]
        t.fuzzer_errors += p["fuzzer_errors"]
        t.kinds.update(p["kinds"])
        t.slowest = sorted([*t.slowest, *map(tuple, p["slowest"])], reverse=True)[:5]
        t.found.update({s: None for s in p["signatures"]})
    return t


def closing_line(seed: int, t: Tally) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.kinds.items())) or "none"
    return (f"fuzz: seed {seed}: {t.inputs} inputs, {t.runs} runs, {t.failures} failures "
            f"({len(t.found)} distinct; {kinds}); {t.cpu:.0f}s CPU in runs, slowest run "
            f"{t.slowest[0][0] if t.slowest else 0:.1f}s" + (f"; {t.fuzzer_errors} fuzzer errors" if t.fuzzer_errors else ""))
