"""``quotactl explain -f snapshot.yaml -f my-job.yaml``: the ``explain --all`` report for jobs not
yet submitted, with one answer line per job (admitted now and on which flavors, after preempting
whom, or pending and why).  JSON keeps ``explain --all``'s shape; each row adds ``job``,
``flavors`` and ``victims``."""

from __future__ import annotations

import json
from dataclasses import dataclass

from rich.text import Text

from quotactl.kueue.explain import ADMITTED, Explanation
from quotactl.report.caveats import above, with_caveats
from quotactl.report.console import PLAIN_VIEW, Hanging, View, render_to_text
from quotactl.report.explain_json import all_document
from quotactl.report.explain_text import all_sections
from quotactl.report.filter_note import unpacked
from quotactl.report.renderers import outcome, register


@dataclass(frozen=True)
class JobAnswer:
    job: str  # kind/namespace/name
    explanation: Explanation


def flavors(e: Explanation) -> dict[str, dict[str, str]]:
    """pod set -> resource -> the flavor Kueue would assign (empty when none fits)."""
    if e.assignment is None:
        return {}
    return {ps.name: {r: fa.flavor for r, fa in ps.flavors.items()} for ps in e.assignment.pod_sets if ps.flavors}


def victims(e: Explanation) -> list[str]:
    p = e.preemption
    return [v.workload for v in p.victims] if p is not None and p.possible else []


def answer(a: JobAnswer) -> str:
    e = a.explanation
    where = "; ".join(f"{ps}: " + ", ".join(f"{r} → {f}" for r, f in res.items()) for ps, res in flavors(e).items())
    borrowing = "borrowing from the cohort" if e.borrows else "no borrowing"
    if e.status == ADMITTED or e.representative_mode == "Fit":
        return f"{a.job}: admitted now to ClusterQueue {e.workload.cluster_queue} ({where}; {borrowing})"
    if victims(e):
        return (f"{a.job}: admitted after preempting {', '.join(victims(e))} ({where}; {borrowing})")
    change = next((c.description for c in e.changes if c.verified), None)
    return f"{a.job}: stays pending ({e.reason or e.status}): {e.headline.short}" + (f"; would admit it: {change}" if change else "")


def render_json(x, caveats: tuple = ()) -> str:
    answers, shown = unpacked(x)
    doc = with_caveats(all_document([a.explanation for a in answers], shown), caveats)
    for row, a in zip(doc["workloads"], answers, strict=True):
        row.update({"job": a.job, "flavors": flavors(a.explanation), "victims": victims(a.explanation)})
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_text(x, plain: bool, view: View = View()) -> str:
    answers, shown = unpacked(x)
    lines = [Text("If submitted now", style="bold")] + [Hanging("  ", answer(a)) for a in answers]
    view = PLAIN_VIEW if plain else view
    return render_to_text(all_sections([a.explanation for a in answers], view, shown=shown) + lines, view=view,
                          plain=plain)


register("explain-jobs", "json", lambda x, view: render_json(x, outcome(x).caveats))
register("explain-jobs", "table", lambda x, view: above(render_text(x, False, view), outcome(x).caveats, view))
register("explain-jobs", "plain", lambda x, view: above(render_text(x, True, view), outcome(x).caveats))
