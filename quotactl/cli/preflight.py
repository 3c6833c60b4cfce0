"""Warnings the engine commands print before simulating: configuration objects Kueue's API server
would reject.

A snapshot printed by ``kubectl get -o yaml`` only holds objects the API server accepted, but a
hand-written or templated config may not. The engines read what they can of such an object (an
unreadable quota counts as absent), so the answer would silently differ from a cluster, which
could never hold the object. The schema check is the same one ``quotactl lint`` runs (KQ0xx),
limited to the configuration kinds: Workloads are written by Kueue's controllers, and checking
tens of thousands of them would dominate the run time.
"""

from __future__ import annotations

import typer

from quotactl.diagnostics import Severity, sort_diagnostics
from quotactl.lint.schema import validate_object
from quotactl.load.objects import Dialect, LoadResult

CONFIG_KINDS = frozenset({"ResourceFlavor", "ClusterQueue", "Cohort", "LocalQueue", "WorkloadPriorityClass",
                          "PriorityClass", "Configuration"})
MAX_LINES = 10


def invalid_config(loaded: LoadResult) -> list:
    """Schema errors of the Kueue configuration objects, in input order."""
    out = []
    for obj in loaded.objects:
        if obj.dialect in (Dialect.KUEUE, Dialect.NEUTRAL) and obj.kind in CONFIG_KINDS:
            out.extend(d for d in validate_object(obj) if d.severity == Severity.ERROR)
    return sort_diagnostics(out)


def warn_invalid_config(loaded: LoadResult) -> None:
    """One stderr line per problem (at most MAX_LINES, then a count); stdout stays untouched."""
    problems = invalid_config(loaded)
    for d in problems[:MAX_LINES]:
        subject = d.object or "this object"
        typer.echo(f"{d.location()}: warning {d.code} {d.message} (the API server rejects {subject}; "
                   "simulated as far as it can be read)", err=True)
    if len(problems) > MAX_LINES:
        typer.echo(f"quotactl: warning: {len(problems) - MAX_LINES} more invalid field(s); "
                   "run 'quotactl lint' on the input for all of them", err=True)
