"""A fork server that runs quotactl's CLI in-process on one input, isolated and limited, and judges it.

The parent imports quotactl once; each run is a forked child with an address-space and a CPU
limit, its stdout/stderr in files, calling the same ``main()`` as the ``quotactl`` script. The
parent reads the exit status, the signal, the CPU time and the output, and names the failure:
a traceback (the child runs with QUOTACTL_DEBUG so nothing is swallowed into "internal error"),
an exit status outside 0/1/2, a signal (segfault, CPU or memory limit), a rule crash (QL999), JSON
output that is not JSON, or different bytes on a rerun.
"""

from __future__ import annotations

import gc
import importlib
import io
import json
import os
import pkgutil
import re
import resource
import signal
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_LIMIT = 2 << 30  # bytes of address space per run
CPU_LIMIT = 20  # seconds of CPU per run
WALL_LIMIT = 600  # seconds per run: a run that waits instead of computing (generous: a loaded machine is slow)
CHILD_CRASH = 70  # the child's own exit status for an exception that escaped main()

_SIGNALS = {signal.SIGXCPU: "cpu-limit", signal.SIGSEGV: "segfault", signal.SIGKILL: "killed",
            signal.SIGABRT: "abort", signal.SIGALRM: "wall-limit", signal.SIGBUS: "bus-error"}


@dataclass(frozen=True)
class Run:
    """One command on one input: ``args`` name the input as ``{input}`` (and ``{base}``)."""

    args: tuple[str, ...]
    tty: bool = False  # stdout claims to be a terminal: the rich renderers draw
    columns: int = 120

    @property
    def json_output(self) -> bool:
        args = list(self.args)
        for flag in ("-o", "--output"):
            if flag in args and args.index(flag) + 1 < len(args):
                return args[args.index(flag) + 1] in ("json", "sarif")
        return False

    def to_json(self) -> dict:
        return {"args": list(self.args), "tty": self.tty, "columns": self.columns}

    @classmethod
    def from_json(cls, data: dict) -> Run:
        return cls(tuple(data["args"]), bool(data.get("tty")), int(data.get("columns", 120)))


@dataclass
class Outcome:
    code: int | None
    signal: int | None
    cpu: float
    stdout: bytes
    stderr: bytes
    failure: str | None = None  # the failure kind, None when the run is fine
    signature: str = ""  # kind plus where: the same bug found twice has the same signature
    detail: str = ""
    extra: dict = field(default_factory=dict)


_PREBUILT: list = []  # the click group of every command, its option parsers built once


def warm_up() -> None:
    """Import every quotactl module and build the command line once in the parent, so a forked run
    pays for neither (typer builds a pydantic adapter per option on first use: 0.2 s a run)."""
    import quotactl

    for name in ("typer._adapters", "pydantic.type_adapter", "rich.console", "rich.table", "ruamel.yaml"):
        importlib.import_module(name)  # what typer and the renderers import on first use
    for mod in pkgutil.walk_packages(quotactl.__path__, "quotactl."):
        if ".live" in mod.name or mod.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(mod.name)
        except Exception:  # a module that needs an optional extra: the child imports it if it can
            pass
    if not _PREBUILT:
        import typer.main

        from quotactl.cli.app import build_app

        group = typer.main.get_command(build_app())
        for command in [group, *group.commands.values()]:
            for param in command.params:
                if hasattr(param, "get_runtime_param"):
                    param.get_runtime_param()
        _PREBUILT.append(group)
    gc.collect()
    gc.freeze()  # the imported modules stay shared with the forked runs (no copy-on-write by the collector)


class _PrebuiltApp:
    """What ``build_app`` returns in a forked run: the parent's click group, called as typer would."""

    def __init__(self, commands=()):
        pass

    def __call__(self, **kwargs):  # prog_name: the command names itself quotactl under python -m too
        return _PREBUILT[0](**kwargs)


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def _child(run: Run, files: dict[str, Path], out: Path, err: Path, workdir: Path) -> None:
    code = CHILD_CRASH
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 1))
        signal.alarm(WALL_LIMIT)
        os.chdir(workdir)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, path in ((1, out), (2, err)):
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(handle, fd)
            os.close(handle)
        wrapper = _Terminal if run.tty else io.TextIOWrapper
        sys.stdout = wrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", line_buffering=False)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace")
        os.environ.update({"COLUMNS": str(run.columns), "QUOTACTL_DEBUG": "1"})
        os.environ.pop("NO_COLOR", None)
        sys.argv = ["quotactl", *(_fill(a, files) for a in run.args)]
        from quotactl.cli import app

        if _PREBUILT:
            app.build_app = _PrebuiltApp
        main = app.main

        try:
            main()
            code = 0
        except SystemExit as exc:
            code = _exit_status(exc.code)
        sys.stdout.flush()
    except BaseException:
        try:
            traceback.print_exc()
        except BaseException:
            os.write(2, b"Traceback (most recent call last):\n<unprintable>\n")
        code = CHILD_CRASH
    try:
        sys.stderr.flush()
    finally:
        os._exit(code)


def _exit_status(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    sys.stderr.write(f"{value}\n")
    return 1


def _fill(arg: str, files: dict[str, Path]) -> str:
    for key, path in files.items():
        arg = arg.replace("{" + key + "}", str(path))
    return arg


def execute(run: Run, files: dict[str, Path], workdir: Path) -> Outcome:
    """Run ``run`` in a forked child and judge it."""
    out, err = workdir / "stdout", workdir / "stderr"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(run, files, out, err, workdir)
    _, status, usage = os.wait4(pid, 0)
    outcome = Outcome(
        code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        cpu=usage.ru_utime + usage.ru_stime,
        stdout=out.read_bytes(), stderr=err.read_bytes(),
    )
    judge(run, outcome)
    return outcome


_TRACE = b"Traceback (most recent call last)"
_RAISED = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b")
_FRAME = re.compile(r'File "([^"]*quotactl/[^"]*)", line \d+, in (\S+)')


def judge(run: Run, o: Outcome) -> None:
    command = run.args[0] if run.args else "?"
    if o.signal is not None:
        kind = _SIGNALS.get(o.signal, f"signal-{o.signal}")
        if kind == "killed" and o.cpu >= CPU_LIMIT:
            kind = "cpu-limit"
        _fail(o, kind, f"{kind}:{command}", f"killed by signal {o.signal} after {o.cpu:.1f}s CPU")
    elif _TRACE in o.stderr:
        text = o.stderr.decode("utf-8", "replace")
        raised = [line for line in text.splitlines() if _RAISED.match(line)]
        last = raised[-1] if raised else (text.strip().splitlines() or [""])[-1]
        exc = last.split(":", 1)[0].strip()
        frames = _FRAME.findall(text)
        where = f"{frames[-1][0].split('quotactl/', 1)[1]}:{frames[-1][1]}" if frames else "?"
        kind = {"MemoryError": "memory", "RecursionError": "recursion"}.get(exc, "traceback")
        _fail(o, kind, f"{kind}:{exc}:{where}", last[:300])
    elif o.code not in (0, 1, 2):
        _fail(o, f"exit-{o.code}", f"exit-{o.code}:{command}", o.stderr.decode("utf-8", "replace")[-300:])
    elif b"QL999" in o.stdout or b"QL999" in o.stderr:
        rule = re.search(rb"internal error in rule (\S+)", o.stdout + o.stderr)
        _fail(o, "ql999", f"ql999:{rule.group(1).decode() if rule else '?'}", "a rule crashed")
    elif run.json_output and o.stdout.strip() and not _is_json(o.stdout):
        _fail(o, "bad-json", f"bad-json:{command}", o.stdout[:200].decode("utf-8", "replace"))


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8"))
    except ValueError:
        return False
    return True


def _fail(o: Outcome, kind: str, signature: str, detail: str) -> None:
    o.failure, o.signature, o.detail = kind, signature, detail


def same_bytes(a: Outcome, b: Outcome) -> bool:
    return (a.code, a.signal, a.stdout, a.stderr) == (b.code, b.signal, b.stdout, b.stderr)
