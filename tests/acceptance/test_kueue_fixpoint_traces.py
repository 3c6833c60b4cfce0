"""Acceptance, finer than the final state: the kueue-fix-schedule cases' notes record Kueue's
cycle-by-cycle trace (who was preempted and who was admitted in each cycle).  The simulator must
reproduce it cycle by cycle, so a between-cycle rule that only happens to end in the same final
state is caught."""

from __future__ import annotations

import re

import pytest

from quotactl.kueue.options import admission_check_states, engine_options
from quotactl.kueue.scheduler import Scheduler
from quotactl.load.objects import load
from quotactl.model.kueue import build_cluster
from tests.acceptance.accept import cases, spec

FIX = cases("kueue-fix-schedule")

_TRACE = re.compile(r"Trace: (.*?)\. (?:Preempted and later|Newly admitted|Workloads admitted|expect\.|The run)")
_CYCLE = re.compile(r"cycles? (\d+)(?:-\d+)?: (.*)")
_PREEMPTED = re.compile(r"([\w.-]+/[\w.-]+) \(\w+\)")


def oracle_trace(notes: str) -> dict[int, tuple[set, set]]:
    """{cycle: (preempted, admitted)} for the cycles that changed something."""
    m = _TRACE.search(notes)
    out: dict[int, tuple[set, set]] = {}
    if not m:
        return out
    for part in re.split(r"; (?=cycles? \d+)", m.group(1)):
        cm = _CYCLE.match(part)
        if not cm or cm.group(2).startswith("nothing"):
            continue
        preempted, admitted = set(), set()
        for seg in re.split(r"[;,] (?=(?:preempted|admitted) )", cm.group(2)):
            if seg.startswith("preempted "):
                preempted |= set(_PREEMPTED.findall(seg))
            elif seg.startswith("admitted "):
                admitted |= {w.strip() for w in seg[len("admitted "):].split(", ")}
        out[int(cm.group(1))] = (preempted, admitted)
    return out


def first_divergence(case) -> int | None:
    trace = oracle_trace(spec(case)["notes"])
    loaded = load([str(case / "state.yaml")])
    cluster = build_cluster(loaded.objects)
    options = engine_options(cluster, admission_checks=admission_check_states(loaded.objects))
    scheduler = Scheduler(cluster, options)
    for n in range(1, max(trace, default=0) + 1):
        report = scheduler.run_cycle(n)
        got = ({p.workload for p in report.preempted}, {a.workload for a in report.admitted})
        if got != trace.get(n, (set(), set())):
            return n
    return None


def test_trace_parser_reads_both_kinds_of_entries():
    notes = ("Trace: cycle 1: preempted a/x (InClusterQueue), a/y (InCohortReclamation); admitted b/z; "
             "cycles 2-3: nothing admitted or preempted (...); cycle 4: admitted b/w, b/v. Newly admitted by")
    assert oracle_trace(notes) == {1: ({"a/x", "a/y"}, {"b/z"}), 4: (set(), {"b/w", "b/v"})}


@pytest.mark.parametrize("case", FIX, ids=[c.name for c in FIX])
def test_fixpoint_trace_matches_kueue(case):
    diverged = first_divergence(case)
    assert diverged is None, f"cycle {diverged} admits/preempts differently from Kueue"
