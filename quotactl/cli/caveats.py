"""The caveats of an engine command's input, computed once per run, and ``--strict``: exit 1 when
there is one, after the full report."""

from __future__ import annotations

import typer

from quotactl.caveat import Caveat
from quotactl.cli.common import EXIT_FINDINGS

StrictOption = typer.Option(
    False, "--strict",
    help="Exit 1 when the input holds a feature quotactl does not model (a caveat of the report), after "
         "printing the report.",
)


def kueue_caveats_of(loaded, cluster, options) -> tuple[Caveat, ...]:
    """The caveats of a Kueue input: of its configuration objects (in ``cluster``, the model of the
    whole input or of one workload's cohort tree: both hold every one) and of all its Workloads."""
    from quotactl.kueue.caveats import kueue_caveats
    from quotactl.model.kueue import workload_traits
    from quotactl.model.kueue_checks import build_alpha_object

    workloads = tuple(t for t in (workload_traits(o) for o in loaded.objects if o.kind == "Workload") if t)
    alpha = tuple(build_alpha_object(o) for o in loaded.alpha_objects)
    return kueue_caveats(cluster, options, workloads, alpha)


def strict_code(code: int, strict: bool, caveats: tuple[Caveat, ...]) -> int:
    """``code``, or 1 with --strict when the answer carries a caveat (a worse code stays)."""
    return max(code, EXIT_FINDINGS) if strict and caveats else code


def merged_caveats(*sides: tuple[Caveat, ...]) -> tuple[Caveat, ...]:
    """``diff``'s caveats: each feature once, naming the objects of both sides (the first side's
    message)."""
    from quotactl.caveat import hidden_count, named_objects

    merged: dict[str, Caveat] = {}
    for c in (c for side in sides for c in side):
        seen = merged.get(c.feature)
        if seen is None or seen.objects == c.objects:
            merged.setdefault(c.feature, c)
            continue
        names = [o for o in seen.objects + c.objects if not hidden_count((o,))]
        hidden = hidden_count(seen.objects) + hidden_count(c.objects)
        merged[c.feature] = Caveat(c.feature, named_objects(names, hidden), seen.message)
    return tuple(merged[f] for f in sorted(merged))
