"""Human output of ``quotactl explain`` / ``quotactl preempt`` for YuniKorn pods: ``table`` (rich
tables, colour on a terminal) and ``plain`` (aligned text, grep-friendly).  A view only: every value
comes from ``quotactl.yunikorn.explain.Explanation``; this module only formats."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.padding import Padding
from rich.text import Text

from quotactl.model.yunikorn_resources import format_resource
from quotactl.report.caveats import under_first_line
from quotactl.report.console import FIXED, ID, PLAIN_VIEW, TEXT, Col, Hanging, Sheet, View, render_to_text
from quotactl.report.renderers import register
from quotactl.yunikorn.explain import Explanation
from quotactl.yunikorn.preemptor import PreemptionResult

# ------------------------------------------------------------------------------ blocks --------


@dataclass
class Block:
    title: str | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    style: str | None = None
    lead: str = ""  # the start of the title the rest wraps under (the pod's name on the verdict line)


def _prio(value: int | None) -> str:
    return "-" if value is None else str(value)


def _res(r) -> str:
    return format_resource(r)


def _header(e: Explanation) -> Block:
    """The pod and the engine's verdict (its first line), then the ask."""
    t = e.task
    o = e.outcome
    app = e.application
    pairs = [("application", f"{t.application} (user {t.user})"),
             ("queue", (t.queue or "-") + (f"  [{app.placement}]" if app and app.placement else "")),
             ("ask", _res(t.resource)),
             ("priority", f"{t.priority}" + (f" (application {e.app_priority})" if e.app_priority is not None
                                              and e.app_priority != t.priority else ""))]
    if not t.allow_preempt_other:
        pairs.append(("preemption", "may not preempt others (preemptionPolicy: Never)"))
    if o is not None:
        pairs.append(("mode", "direct preemptor call (--direct)" if o.direct else "YuniKorn's scheduling cycle"))
    pairs.append(("result", f"{e.mode} / {e.reason}"))
    return Block(f"{t.key}: {e.headline}", pairs=pairs, lead=f"{t.key}: ")


def _why(e: Explanation) -> Block:
    return Block("Why", lines=[f"- {m}" for m in e.messages])


def _priorities(e: Explanation) -> list[Block]:
    rows = [[q.path, _prio(q.current if q.pending else None), _prio(q.exposed if q.pending else None), q.policy,
             str(q.offset)] for q in e.queue_priorities]
    out = [Block("Queue priorities (leaf to root; '-' = nothing pending)",
                 headers=["queue", "current", "exposed", "policy", "offset"], rows=rows)]
    lines = []
    for s in e.order:
        pos = f"{s.position} of {len(s.order)}" if s.position else "not listed (nothing pending)"
        lines.append(f"{s.parent}: {s.child} is {pos} [{', '.join(x.rsplit('.', 1)[1] for x in s.order)}]"
                     f" by {s.by}")
    if e.app_order:
        lines.append(f"{e.task.queue}: applications {', '.join(e.app_order)}")
    if lines:
        out.append(Block("Scheduling order", lines=lines))
    return out


def _queues(e: Explanation) -> list[Block]:
    o = e.outcome
    if o is None:
        return []
    out = []
    rows = [[q.path, _res(q.max), _res(q.guaranteed), _res(q.allocated), _res(q.own_headroom),
             "yes" if q.fits else "NO"] for q in o.queue_limits]
    out.append(Block("Queue headroom (leaf to root)", headers=["queue", "max", "guaranteed", "used", "headroom",
                                                               "ask fits"], rows=rows))
    if o.user_limits:
        out.append(Block("User limits", headers=["queue", "limit", "for", "max", "used", "ask fits"],
                         rows=[[u.queue, u.limit, u.who, _res(u.max_resources), _res(u.used),
                                "yes" if u.fits else "NO"] for u in o.user_limits]))
    if o.node_fits:
        out.append(Block("Nodes (in node-sorting order)", headers=["node", "available", "fits", "why not"],
                         rows=[[f.node, _res(f.available), "yes" if f.fits else "no", f.reason or ""]
                               for f in o.node_fits]))
    return out


def _preemption(pre: PreemptionResult | None, path: str | None, direct: bool) -> list[Block]:
    if pre is None:
        return []
    how = ("direct preemptor call" if direct else
           {"A": "path A: the ask exceeds its queue headroom", "B": "path B: no node has room"}.get(path or "", ""))
    pairs = []
    if pre.preconditions:
        pairs.append(("preconditions", "; ".join(pre.preconditions)))
    if pre.fence:
        pairs.append(("fence", f"{pre.fence} ({pre.fence_reason})"))
        pairs.append(("ask priority", ", ".join(f"{q} {p}" for q, p in pre.priority_by_queue)))
    gc = pre.guarantee_check
    if gc is not None:
        pairs.append(("guarantee check", ("passed" if gc.passed else "FAILED") + f": {gc.reason}"))
    if pre.queue_level_only:
        pairs.append(("nodes", "none in the input: victims chosen by the queue rules only"))
    blocks = [Block(f"Preemption ({how})" if how else "Preemption", pairs=pairs)]
    if pre.candidates:
        blocks.append(Block("Candidate victims", headers=["pod", "queue", "node", "priority", "ask priority here",
                                                          "note"],
                            rows=[[c.key, c.queue, c.node or "-", str(c.priority),
                                   "fenced" if c.fenced else str(c.compared_with),
                                   "; ".join(x for x in ("opted out" if not c.allow_preempt_self else "",
                                                         "originator" if c.originator else "") if x)]
                                  for c in pre.candidates]))
    if pre.excluded:
        blocks.append(Block("Not candidates", lines=[f"- {x.what}: {x.reason}" for x in pre.excluded]))
    if pre.dropped_nodes or pre.node_checks:
        rows = [[d.node, "-", "-", f"dropped: {d.reason}"] for d in pre.dropped_nodes]
        for c in pre.node_checks:
            verdict = ("not asked" if c.success is None else
                       (f"ok, index {c.predicate_index}, score {c.score}" if c.success else f"rejected: {c.reason}"))
            rows.append([c.node, str(c.start_index), ", ".join(c.victims) or "-", verdict])
        blocks.append(Block("Nodes tried (victims in the order YuniKorn would take them)",
                            headers=["node", "start index", "victims", "predicate check"], rows=rows))
    if pre.success:
        blocks.append(Block("Victims", headers=["pod", "queue", "node", "priority", "resources", "found by"],
                            rows=[[v.key, v.queue, v.node or "-", str(v.priority), _res(v.resource),
                                   "node" if v.step == "node" else "additional"] for v in pre.victims]))
    elif pre.log:
        blocks.append(Block("Refused", lines=[f"- {m}" for m in pre.log]))
    return blocks


def _notes(e: Explanation) -> list[Block]:
    return [Block("Notes", lines=[f"- {n}" for n in e.notes])] if e.notes else []


def explain_blocks(e: Explanation) -> list[Block]:
    o = e.outcome
    blocks = [_header(e), _why(e)] + _priorities(e) + _queues(e)
    if o is not None:
        blocks += _preemption(o.preemption, o.path, o.direct)
    return blocks + _notes(e)


def preempt_blocks(e: Explanation) -> list[Block]:
    o = e.outcome
    blocks = [_header(e), _why(e)]
    if o is not None:
        blocks += _preemption(o.preemption, o.path, o.direct)
    return blocks + _notes(e)


# ------------------------------------------------------------------------------ drawing -------

# What each column holds: names to copy, fixed words and numbers, or text and resource lists that wrap.
_KIND = {"queue": ID, "pod": ID, "node": ID, "victims": ID, "current": FIXED, "exposed": FIXED, "policy": FIXED,
         "offset": FIXED, "priority": FIXED, "ask fits": FIXED, "fits": FIXED, "start index": FIXED,
         "ask priority here": FIXED, "found by": FIXED, "limit": FIXED, "for": ID}
_RESOURCES = {"max", "guaranteed", "used", "headroom", "available", "resources"}


def _sheet(b: Block, view: View, plain: bool) -> list:
    """The block's table: titled on a terminal; plain, its title then the rows indented by two."""
    cols = [Col(h, _KIND.get(h, TEXT), ratio=3 if h in ("why not", "predicate check", "note") else 1)
            for h in b.headers]
    sheet = Sheet(cols, view, title=None if plain else Text(b.title or "", style="bold"))
    for r in b.rows:
        # on a terminal, one resource per line: a narrow column wraps between resources
        sheet.add_row(*[Text("NO", style="red") if x == "NO" else
                        (x if plain or h not in _RESOURCES else x.replace(", ", ",\n"))
                        for h, x in zip(b.headers, r, strict=True)])
    return [Text(b.title or ""), Padding(sheet, (0, 0, 0, 2))] if plain else [sheet]


def _renderables(blocks: list[Block], view: View, plain: bool) -> list:
    out: list = []
    for i, b in enumerate(blocks):
        if i:
            out.append(Text(""))
        if b.headers:
            out.extend(_sheet(b, view, plain))
            continue
        if b.title and b.lead:
            out.append(Hanging(Text(b.lead, style="bold cyan"), Text(b.title[len(b.lead):], style="bold")))
        elif b.title:
            out.append(Text(b.title, style="bold cyan" if i == 0 else "bold"))
        width = max((len(k) for k, _ in b.pairs), default=0)
        for k, v in b.pairs:
            out.append(Hanging(f"  {k.ljust(width)}  ", v, style="dim"))
        for line in b.lines:
            out.append(Hanging("  - " if line.startswith("- ") else "  ", line[2:] if line.startswith("- ") else line))
    return out


def render_explain_plain(e: Explanation, view: View = View()) -> str:
    return render_to_text(_renderables(explain_blocks(e), PLAIN_VIEW, True), plain=True)


def render_preempt_plain(e: Explanation, view: View = View()) -> str:
    return render_to_text(_renderables(preempt_blocks(e), PLAIN_VIEW, True), plain=True)


def render_explain_table(e: Explanation, view: View = View()) -> str:
    return render_to_text(_renderables(explain_blocks(e), view, False), view=view)


def render_preempt_table(e: Explanation, view: View = View()) -> str:
    return render_to_text(_renderables(preempt_blocks(e), view, False), view=view)


register("yunikorn-explain", "table",
         lambda o, view: under_first_line(render_explain_table(o.result, view), o.caveats, view))
register("yunikorn-explain", "plain", lambda o, view: under_first_line(render_explain_plain(o.result, view), o.caveats))
register("yunikorn-preempt", "table",
         lambda o, view: under_first_line(render_preempt_table(o.result, view), o.caveats, view))
register("yunikorn-preempt", "plain", lambda o, view: under_first_line(render_preempt_plain(o.result, view), o.caveats))
