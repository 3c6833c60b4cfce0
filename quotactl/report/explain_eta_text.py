"""``quotactl explain --eta`` for people: explain's report, then the estimate (start, what finishes
first, whom it preempts, the assumptions); under ``--all`` an ETA column.  Formatting only; user
names go into Text objects, never through rich markup."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text

from quotactl.report.caveats import above, under_first_line
from quotactl.report.console import PLAIN_VIEW, View, render_to_text
from quotactl.report.durations import human_duration
from quotactl.report.explain_text import all_sections, renderables
from quotactl.report.renderers import outcome, register
from quotactl.simulate.clock import at, rfc3339, seconds
from quotactl.simulate.eta_status import ADMITTED, NEVER, RUNNING

if TYPE_CHECKING:  # the simulator is imported only when an ETA is asked for
    from quotactl.simulate.eta import Eta, Explained, ExplainedAll

_STATUS_STYLE = {ADMITTED: "bold green", RUNNING: "green", NEVER: "bold red"}


def eta_cell(eta: Eta) -> Text:
    """The short form of ``--all``'s column: ``now``, ``in 1h20m``, ``running``, ``never``, ``unknown``."""
    if eta.status == ADMITTED:
        text = "now" if eta.start == 0 else f"in {human_duration(eta.start)}"
    else:
        text = eta.status
    return Text(text, style=_STATUS_STYLE.get(eta.status, "yellow"))


def _start_line(eta: Eta) -> Text:
    line = Text("  estimated start: ")
    if eta.start is None:
        line.append(eta.status, style=_STATUS_STYLE.get(eta.status, "yellow"))
        line.append(f" ({eta.why})")
        return line
    when = rfc3339(at(eta.t0, eta.start))
    if eta.status == RUNNING:
        line.append(f"running since {when} ({human_duration(-eta.start)} before the snapshot)")
        return line
    line.append("now" if eta.start == 0 else f"in {human_duration(eta.start)}", style="bold")
    line.append(f" (t0+{seconds(eta.start)}s), {when}")
    return line


def _listed(title: str, items: list[str], empty: str, total: int | None = None) -> list:
    if not items:
        return [Text(f"  {title}: {empty}")]
    more = f" (the last {len(items)} of {total})" if total is not None and total > len(items) else ""
    return [Text(f"  {title}{more}:")] + [Text(f"    {i}") for i in items]


def _names(names: tuple, total: int) -> str:
    return ", ".join(names) + (f" and {total - len(names)} more" if total > len(names) else "")


def eta_section(eta: Eta) -> list:
    out = [Text("ETA", style="bold"), Text(f"  simulated from t0 = {rfc3339(eta.t0)} (the snapshot)"), _start_line(eta)]
    if eta.status == ADMITTED:
        out += _listed("finishes first to make room",
                       [f"t0+{human_duration(f.at)}  {f.workload} [{f.cluster_queue or '-'}]" for f in eta.finishes_first],
                       "nothing (the quota is free)", eta.finishes_first_total)
        out += _listed("would preempt",
                       [f"{v.workload} [{v.cluster_queue or '-'}] {v.reason}" for v in eta.preempts], "nobody")
    if eta.status == NEVER and eta.no_runtime_running:
        out.append(Text("  blocked by running workloads with no runtime (they never finish): "
                        + _names(eta.no_runtime_running, eta.no_runtime_total)))
    return out + _assumptions(eta)


# How each runtime source reads after a count ("3 from the quotactl.io/runtime annotation").
_SOURCE_WORDS = {
    "annotation": "from the quotactl.io/runtime annotation",
    "maximumExecutionTimeSeconds": "from spec.maximumExecutionTimeSeconds",
    "default": "from --default-runtime",
    "none": "with no runtime (never finish)",
}


def _assumptions(eta: Eta) -> list:
    sources = ", ".join(f"{n} {_SOURCE_WORDS.get(src, src)}" for src, n in eta.runtime_sources.items())
    out = [Text("  assumptions:"), Text(f"    runtimes: {sources or 'no workloads simulated'}")]
    if eta.no_runtime_running and eta.status != NEVER:
        out.append(Text(f"    running with no runtime (never finish): {_names(eta.no_runtime_running, eta.no_runtime_total)}"))
    if eta.overdue:
        out.append(Text("    overdue (runtime over before the snapshot, finished at t0): "
                        + _names(eta.overdue, eta.overdue_total)))
    return out


def render(x: Explained, view: View = View(), plain: bool = False) -> str:
    parts = renderables(x.explanation, PLAIN_VIEW if plain else view) + [Text(""), Group(*eta_section(x.eta))]
    return render_to_text(parts, view=view, plain=plain)


def render_all(x: ExplainedAll, view: View = View(), plain: bool = False) -> str:
    column = {key: eta_cell(eta) for key, eta in x.etas.items()}
    sections = all_sections(list(x.explanations), PLAIN_VIEW if plain else view, {"ETA": column}, x.shown)
    return render_to_text(sections, view=view, plain=plain)


register("explain-eta", "table",
         lambda x, view: under_first_line(render(outcome(x).result, view), outcome(x).caveats, view))
register("explain-eta", "plain",
         lambda x, view: under_first_line(render(outcome(x).result, view, plain=True), outcome(x).caveats))
register("explain-all-eta", "table",
         lambda x, view: above(render_all(outcome(x).result, view), outcome(x).caveats, view))
register("explain-all-eta", "plain",
         lambda x, view: above(render_all(outcome(x).result, view, plain=True), outcome(x).caveats))
