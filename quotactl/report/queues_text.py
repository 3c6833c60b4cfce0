"""Human output of ``quotactl queues``: ``table`` (rich table, queue names drawn as a tree),
``tree`` (rich tree with every effective setting per queue) and ``plain`` (one line per queue,
ASCII tree, grep-friendly).  Views only: every value comes from ``quotactl.yunikorn.tree``."""

from __future__ import annotations

from rich.text import Text
from rich.tree import Tree

from quotactl.model.yunikorn_resources import format_resource, parse_lenient
from quotactl.report.console import (
    FIXED,
    ID,
    TEXT,
    Col,
    Sheet,
    View,
    plain_text,
    render_to_text,
    stdout_is_tty,
)
from quotactl.report.renderers import register
from quotactl.yunikorn import properties as props
from quotactl.yunikorn.tree import ConfigView, PartitionView, QueueView

# --------------------------------------------------------------------------- shared cells -----


def kind_of(v: QueueView) -> str:
    if v.inserted:
        return "parent (inserted)"
    return "leaf" if v.leaf else "parent"


def max_cell(v: QueueView) -> str:
    own = v.applied_max
    eff = v.effective_max
    if not eff:
        return "-"
    if not own:
        return f"{format_resource(eff)} (inherited)"
    if any(k in own and eff[k] < own[k] for k in eff):
        return f"{format_resource(eff)} (capped by ancestors)"
    if eff != own:
        return f"{format_resource(eff)} (+ ancestors' limits)"
    return format_resource(own)


def guaranteed_cell(v: QueueView) -> str:
    return format_resource(v.applied_guaranteed)


def apps_cell(v: QueueView) -> str:
    return str(v.max_applications) if v.max_applications else "-"


def priority_cell(v: QueueView) -> str:
    if v.path == "root":
        return "-"
    parts = []
    if v.priority_fence:
        parts.append(f"fence {v.priority_offset}")
    elif v.priority_offset:
        parts.append(f"offset {v.priority_offset:+d}")
    else:
        parts.append("default")
    return ", ".join(parts)


def preemption_cell(v: QueueView) -> str:
    s = v.setting(props.PREEMPTION_POLICY)
    policy = v.preemption_policy
    if v.path == "root":
        text = "fence (root)" if policy != "disabled" else "disabled"
    else:
        text = policy
    if s is not None and s.source == "inherited" and policy == "disabled":
        text += f" (from {s.origin})"
    if v.leaf:
        delay = v.setting(props.PREEMPTION_DELAY)
        if delay is not None:
            text += f", delay {delay.value}"
    return text


def sort_cell(v: QueueView) -> str:
    pol = v.setting(props.SORT_POLICY)
    pri = v.setting(props.SORT_PRIORITY)
    base = "fair (queues)" if not v.leaf else (pol.value if pol else "fifo")
    off = pri is not None and pri.value == "disabled"
    return base + (", priority off" if off else "")


def _live_for(r: ConfigView, pv: PartitionView):
    live = r.live
    return live if live is not None and getattr(live, "partition", None) == pv.name else None


def live_used_cell(lq) -> str:
    return format_resource(lq.allocated) if lq is not None else "-"


def live_pending_cell(lq) -> str:
    if lq is None or not lq.pending_pods:
        return "-"
    return f"{lq.pending_pods} pod{'s' if lq.pending_pods != 1 else ''}: {format_resource(lq.pending)}"


def live_priority_cell(lq) -> str:
    """``current -> exposed`` (what the parent sees), and the place in the parent's order."""
    if lq is None or lq.current_priority is None:
        return "-"
    text = f"{lq.current_priority}"
    if lq.exposed_priority != lq.current_priority:
        text += f" -> {lq.exposed_priority}"
    if lq.rank is not None:
        text += f" (#{lq.rank})"
    return text


def live_title(live) -> str:
    return (f"live: {live.pods} YuniKorn pod{'s' if live.pods != 1 else ''} on {live.nodes} "
            f"node{'s' if live.nodes != 1 else ''}; priority now = current -> exposed to the parent "
            "(#place in the parent's scheduling order)")


def dynamic_lines(live) -> list[str]:
    out = []
    for q in live.queues.values():
        if q.dynamic:
            out.append(f"{q.path} (created by a placement rule): used {live_used_cell(q)}, pending "
                       f"{live_pending_cell(q)}, priority {live_priority_cell(q)}")
    return out


def warnings_of(v: QueueView) -> list[str]:
    """This queue's own property values that YuniKorn cannot parse, and what it uses instead."""
    out = []
    for key, raw in sorted(v.properties.items()):
        parser = props.PARSERS.get(key)
        if parser is None:
            continue
        parsed = parser(raw)
        if parsed.error is not None:
            out.append(f"{key} {raw!r} -> {props.describe(key, parsed.value)} ({parsed.error})")
    return out


def config_title(r: ConfigView) -> str:
    state = "valid" if r.valid else f"INVALID ({r.errors} error{'s' if r.errors != 1 else ''})"
    warn = f", {r.warnings} warning{'s' if r.warnings != 1 else ''}" if r.warnings else ""
    return f"{r.origin} ({r.file}): {state}{warn}"


def partition_line(pv: PartitionView) -> str:
    rules = ", ".join(_rule_text(r) for r in pv.placement_rules) or "provided (implicit)"
    pre = "on" if pv.preemption_enabled else "off"
    quota = ", quota preemption on" if pv.quota_preemption_enabled else ""
    return f"partition {pv.name}: node sorting {pv.node_sort_policy}, preemption {pre}{quota}; placement: {rules}"


def _rule_text(rule: dict) -> str:
    values = ",".join(rule["values"])
    text = rule["chain"] + (f"({values})" if values else "")
    return text + (" create" if rule["create"] else "")


def _walk(v: QueueView, prefix: str = "", last: bool = True, top: bool = True, ascii_only: bool = False):
    """(tree prefix + name, view) pairs, depth-first."""
    if ascii_only:
        tee, elbow, pipe, blank = "|-- ", "`-- ", "|   ", "    "
    else:
        tee, elbow, pipe, blank = "├── ", "└── ", "│   ", "    "
    label = v.name if top else prefix + (elbow if last else tee) + v.name
    yield label, v
    child_prefix = "" if top else prefix + (blank if last else pipe)
    for i, c in enumerate(v.children):
        yield from _walk(c, child_prefix, i == len(v.children) - 1, False, ascii_only)


# ------------------------------------------------------------------------------ table ---------

def _config_header(r: ConfigView) -> list[Text]:
    """The title of one scheduler config, whether YuniKorn rejects it, and its notes."""
    out = [Text(config_title(r), style="bold" if r.valid else "bold red")]
    if r.rejected_with:
        out.append(Text(f"YuniKorn rejects it: {r.rejected_with}", style="red"))
    out.extend(Text(note, style="yellow") for note in r.notes)
    return out


def _stacked(resources: str) -> str:
    """``vcore 4, memory 8Gi (inherited)`` as one resource per line (a narrow cell wraps between
    resources, not inside one)."""
    return resources.replace(", ", ",\n").replace(" (", "\n(")


def _columns(live: bool) -> list[Col]:
    """80 columns: the tree and its quota (with the live usage when the input has pods); --wide:
    every setting."""
    return [Col("Queue", ID), Col("Type", TEXT, wide=True), Col("Guaranteed", TEXT, wide=True if live else None),
            Col("Max", TEXT),
            Col("Apps", FIXED, "right", wide=True), Col("Priority", TEXT, wide=True if live else None),
            Col("Root sees", FIXED, wide=True), Col("Preemption", TEXT, wide=True if live else None),
            Col("Sorting", TEXT, wide=True)] + (
        [Col("Used", TEXT), Col("Pending", TEXT), Col("Priority now", TEXT, wide=True)] if live else [])


def render_table(reports: list[ConfigView], view: View = View()) -> str:
    renderables = []
    for r in reports:
        renderables.extend(_config_header(r))
        for pv in r.partitions:
            live = _live_for(r, pv)
            table = Sheet(_columns(live is not None), view, title=Text(partition_line(pv), style="bold"))
            for label, v in _walk(pv.root):
                name = Text(label)
                if warnings_of(v):
                    name.append(" !", style="bold yellow")
                row = [name, kind_of(v), _stacked(guaranteed_cell(v)), _stacked(max_cell(v)), apps_cell(v),
                       priority_cell(v), "-" if v.path == "root" else v.priority_at_root, preemption_cell(v),
                       sort_cell(v)]
                if live is not None:
                    lq = live.get(v.path)
                    row += [_stacked(live_used_cell(lq)), _stacked(live_pending_cell(lq)), live_priority_cell(lq)]
                table.add_row(*row)
            renderables.append(table)
            if live is not None:
                renderables.append(Text(live_title(live), style="dim"))
                for line in dynamic_lines(live) + list(live.notes):
                    renderables.append(Text(line, style="dim"))
            notes = [(v.path, w) for _, v in _walk(pv.root) for w in warnings_of(v)]
            for path, w in notes:
                renderables.append(Text(f"! {path}: {w}", style="yellow"))
    return render_to_text(renderables, view=view)


# ------------------------------------------------------------------------------- tree ---------

def _node_label(v: QueueView) -> Text:
    t = Text(v.name, style="bold")
    t.append(f"  [{kind_of(v)}]", style="dim")
    if v.priority_fence:
        t.append("  priority fence", style="magenta")
    if v.preemption_fence and v.path != "root":
        t.append("  preemption fence", style="magenta")
    if v.preemption_disabled:
        t.append("  preemption disabled", style="magenta")
    return t


def _details(v: QueueView) -> list[Text]:
    lines = [Text(f"guaranteed: {guaranteed_cell(v)}   max: {max_cell(v)}   max apps: {apps_cell(v)}")]
    if v.path != "root":
        lines.append(Text(f"priority: {v.priority_policy}, offset {v.priority_offset} -> seen by root as "
                          f"{v.priority_at_root}"))
    lines.append(Text(f"preemption: {preemption_cell(v)}   sorting: {sort_cell(v)}"))
    shown = []
    for key in props.KNOWN:
        s = v.setting(key)
        if key not in v.effective_properties or s is None or s.source in ("reset", "default"):
            continue
        text = f"{key}={v.effective_properties[key]}"
        if s.source == "fallback":
            text += f" -> {s.value}"
        src = "own" if s.origin == v.path else f"from {s.origin}"
        shown.append(f"{text} ({src})")
    if shown:
        lines.append(Text("effective properties: " + ", ".join(shown)))
    extra = sorted(k for k in v.effective_properties if k not in props.KNOWN)
    if extra:
        lines.append(Text("other properties (ignored by YuniKorn): " + ", ".join(extra), style="dim"))
    if v.submit_acl or v.admin_acl:
        lines.append(Text(f"submitacl: {v.submit_acl or '-'!s}   adminacl: {v.admin_acl or '-'!s}"))
    if v.limits:
        lines.append(Text("limits: " + "; ".join(_limit_text(x) for x in v.limits)))
    if v.child_template is not None:
        lines.append(Text("childtemplate: set here (dynamic children created below take it)"))
    elif v.template_from:
        lines.append(Text(f"childtemplate: from {v.template_from}", style="dim"))
    for w in warnings_of(v):
        lines.append(Text(f"! {w}", style="yellow"))
    return lines


def _limit_text(lim) -> str:
    who = ",".join(list(lim.users or []) + [f"group:{g}" for g in (lim.groups or [])])
    parts = []
    res, _ = parse_lenient(lim.maxresources)
    if res:
        parts.append(format_resource(res))
    if lim.maxapplications:
        parts.append(f"{lim.maxapplications} apps")
    return f"{who}: {' / '.join(parts) or '-'}"


def render_tree(reports: list[ConfigView], view: View = View(), plain: bool = False) -> str:
    """The tree; ``plain``: drawn as wide as it needs, never wrapped."""
    renderables = []
    for r in reports:
        renderables.extend(_config_header(r))
        for pv in r.partitions:
            tree = Tree(Text(partition_line(pv), style="bold"), guide_style="dim")
            live = _live_for(r, pv)

            def add(node: Tree, v: QueueView, live=live) -> None:
                details = _details(v)
                if live is not None:
                    lq = live.get(v.path)
                    details.append(Text(f"live: used {live_used_cell(lq)}   pending {live_pending_cell(lq)}   "
                                        f"priority now {live_priority_cell(lq)}", style="cyan"))
                    if lq is not None and lq.apps:
                        details.append(Text("applications in scheduling order: " + ", ".join(
                            f"{a.id} ({'priority ' + str(a.priority) if a.priority is not None else 'nothing pending'}"
                            f", {a.running} running, {a.pending} pending)" for a in lq.apps), style="cyan"))
                branch = node.add(Text.assemble(_node_label(v), "\n", Text("\n").join(details)))
                for c in v.children:
                    add(branch, c)

            add(tree, pv.root)
            renderables.append(tree)
            if live is not None:
                renderables.append(Text(live_title(live), style="dim"))
                for line in dynamic_lines(live) + list(live.notes):
                    renderables.append(Text(line, style="dim"))
    return render_to_text(renderables, view=view, plain=plain)


# ------------------------------------------------------------------------------ plain ---------

def render_plain(reports: list[ConfigView]) -> str:
    lines: list[str] = []
    for r in reports:
        lines.append(config_title(r))
        if r.rejected_with:
            lines.append(f"YuniKorn rejects it: {r.rejected_with}")
        lines.extend(r.notes)
        for pv in r.partitions:
            lines.append(partition_line(pv))
            live = _live_for(r, pv)
            for label, v in _walk(pv.root, ascii_only=True):
                fields = [f"type={kind_of(v).replace(' ', '')}", f"guaranteed={_flat(guaranteed_cell(v))}",
                          f"max={_flat(max_cell(v))}", f"maxapps={apps_cell(v)}"]
                if v.path != "root":
                    fields.append(f"priority={v.priority_policy}/{v.priority_offset}")
                    fields.append(f"rootsees={v.priority_at_root.replace(' ', '_')}")
                fields.append(f"preemption={_flat(preemption_cell(v))}")
                fields.append(f"sorting={_flat(sort_cell(v))}")
                if live is not None:
                    lq = live.get(v.path)
                    fields += [f"used={_flat(live_used_cell(lq))}", f"pending={_flat(live_pending_cell(lq))}",
                               f"prionow={_flat(live_priority_cell(lq))}"]
                lines.append(f"{label}  " + " ".join(fields))
                for w in warnings_of(v):
                    lines.append(f"    ! {w}")
            if live is not None:
                lines.append(live_title(live))
                lines.extend(dynamic_lines(live) + list(live.notes))
        lines.append("")
    return plain_text(["\n".join(lines).rstrip("\n")])


def _flat(text: str) -> str:
    return text.replace(", ", ",").replace(" ", "_") if text else "-"


register("queues", "table", render_table)
# piped (no terminal, no width asked), the tree is drawn as wide as it needs: never wrapped
register("queues", "tree", lambda reports, view: render_tree(reports, view,
                                                             plain=view.width is None and not stdout_is_tty()),
         note="every effective setting")
register("queues", "plain", lambda reports, view: render_plain(reports))
