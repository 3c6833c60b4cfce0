"""Human ``quotactl shares`` output: the fair-share tree as a table (rich on a terminal, plain
when piped or NO_COLOR).  Formatting only."""

from __future__ import annotations

from rich.text import Text

from quotactl.kueue.amounts import format_amount
from quotactl.kueue.fairshare import RankedHead, ShareNode, ShareTree
from quotactl.report.caveats import above
from quotactl.report.console import FIXED, ID, PLAIN_VIEW, Col, Hanging, Sheet, View, render_to_text
from quotactl.report.filter_note import shown_line
from quotactl.report.renderers import register


def _share(v: float | None) -> str:
    if v is None:
        return "+Inf"
    return f"{v:.1f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _weight(w: float) -> str:
    return f"{w:g}"


def _prefixes(tree: ShareTree) -> dict[int, str]:
    """Box-drawing prefixes (├─ └─ │) from the depth-first order and each node's children."""
    out: dict[int, str] = {}
    last_child: dict[tuple[str | None, int], str] = {}
    for n in tree.nodes:
        if n.children:
            last_child[(n.name, n.depth + 1)] = n.children[-1]
    stack: list[bool] = []  # per depth: is the ancestor at that depth the last child?
    for i, n in enumerate(tree.nodes):
        if n.depth == 0:
            out[i] = ""
            stack = []
            continue
        is_last = last_child.get((n.parent, n.depth)) == n.name
        del stack[n.depth - 1:]
        stack.append(is_last)
        out[i] = "".join("   " if last else "│  " for last in stack[:-1]) + ("└─ " if is_last else "├─ ")
    return out


def _label(n: ShareNode) -> str:
    extra = []
    if n.kind == "Cohort":
        extra.append("cohort" + (", implicit" if n.implicit else ""))
    if not n.active:
        extra.append("inactive")
    return n.name + (f" ({', '.join(extra)})" if extra else "")


# 80 columns: the tree, what each node borrows and its share and rank; --wide adds the weight, what
# it could lend and its dominant resource.
_TREE_COLUMNS = [Col("node", ID), Col("weight", FIXED, "right", wide=True), Col("resource", ID),
                 Col("quota", FIXED, "right"), Col("usage", FIXED, "right"), Col("borrowed", FIXED, "right"),
                 Col("lendable", FIXED, "right", wide=True), Col("share‰", FIXED, "right"),
                 Col("dominant", ID, wide=True), Col("weighted share", FIXED, "right"), Col("rank", FIXED, "right")]


def _tree_table(tree: ShareTree, view: View) -> Sheet:
    t = Sheet(_TREE_COLUMNS, view)
    prefixes = _prefixes(tree)
    for i, n in enumerate(tree.nodes):
        rows = n.resources or ()
        weighted = (_share(n.weighted_share) if n.has_share else "-")
        style = "red" if n.weighted_share is None else ("yellow" if n.borrowing else "")
        head = [Text(prefixes[i] + _label(n), style="bold" if n.kind == "Cohort" else ""),
                _weight(n.weight) if n.has_share else "-"]
        tail = [n.dominant_resource or "-", Text(weighted, style=style), str(n.rank) if n.rank else "-"]
        if not rows:
            t.add_row(*head, "-", "", "", "", "", "", *tail)
            continue
        for j, r in enumerate(rows):
            res = r.resource
            cells = [res, format_amount(res, r.quota), format_amount(res, r.usage), format_amount(res, r.borrowed),
                     format_amount(res, r.lendable) if n.has_share else "-",
                     _share(r.share) if r.share is not None else "-"]
            if j == 0:
                t.add_row(*head, *cells, *tail)
            else:
                cont = prefixes[i].replace("├─ ", "│  ").replace("└─ ", "   ")
                t.add_row(Text(cont + ("│  " if n.children else "")), "", *cells, "", "", "")
    return t


def _heads_table(heads: tuple[RankedHead, ...], view: View) -> Sheet:
    t = Sheet([Col("#", FIXED, "right"), Col("workload", ID), Col("ClusterQueue", ID), Col("mode", FIXED),
               Col("priority", FIXED, "right"), Col("share after", FIXED, "right"), Col("", FIXED)], view,
              title="Queue heads in tournament order (shares after admitting each alone)")
    for h in heads:
        t.add_row(str(h.order), h.workload, h.cluster_queue, h.mode, str(h.priority), _share(h.share),
                  "borrows" if h.borrowing else "")
    return t


def _legend(tree: ShareTree) -> list:
    out = []
    if not tree.fair_sharing:
        out.append(Hanging("", Text("fair sharing is off in this input: the shares are what Kueue would use with it "
                                    "on (--fair-sharing, or a Configuration with fairSharing.enable)", style="dim")))
    out.append(Hanging("", Text("share‰ = borrowed / lendable × 1000 per resource (borrowed summed over the flavors where the "
                    "node is above its quota; lendable = what the parent could provide); weighted share = the "
                    "dominant resource's share / weight (+Inf: weight 0 and borrowing); rank 1 = lowest share "
                    "among its siblings: admitted first by the tournament, preempted last", style="dim")))
    return out


def renderables(tree: ShareTree, heads: tuple[RankedHead, ...], view: View) -> list:
    out: list = [Text("Fair-share tree" + (" (fair sharing on)" if tree.fair_sharing else ""), style="bold"),
                 _tree_table(tree, view)]
    if heads:
        out += [Text(""), _heads_table(heads, view)]
    if tree.shown is not None:
        out.append(Text(shown_line(tree.shown, "queue heads"), style="bold"))
    out += [Text("")] + _legend(tree)
    return out


def render_plain(tree: ShareTree, heads: tuple[RankedHead, ...] = (), view: View = View()) -> str:
    return render_to_text(renderables(tree, heads, PLAIN_VIEW), plain=True)


def render_table(tree: ShareTree, heads: tuple[RankedHead, ...] = (), view: View = View()) -> str:
    return render_to_text(renderables(tree, heads, view), view=view)


register("shares", "table", lambda o, view: above(render_table(o.result, o.context, view), o.caveats, view))
register("shares", "plain", lambda o, view: above(render_plain(o.result, o.context, view), o.caveats))
