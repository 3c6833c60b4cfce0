"""Placement rules: which leaf queue an application lands in (yunikorn-core ``pkg/scheduler/placement``).

``place`` runs the partition's rules in order on the queue the pod asked for (its ``queue`` label /
annotation), the user and the tags, exactly as the placement manager does: the first rule that
yields a leaf the user may submit to wins; a missing queue is only acceptable when the rule may
create it.  With no rules the implicit ``provided`` rule (create false) applies.  When nothing
matches, the application goes to ``root.default`` if that queue exists, else it is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from quotactl.model.yunikorn import PlacementRule

DOT = "."
DOT_REPLACEMENT = "_dot_"


@dataclass(frozen=True)
class Placement:
    queue: str | None  # the leaf path (lower-cased), None when rejected
    rule: str  # the rule that placed it ("provided", "tag", ...) or why it was rejected
    create: tuple[str, ...] = ()  # queues the placement creates (parents first)
    note: str | None = None


def replace_dot(name: str) -> str:
    return name.replace(DOT, DOT_REPLACEMENT)


def _acl_admits(acl: str | None, user: str, groups: tuple[str, ...]) -> bool:
    """A queue ACL (``"users groups"``; ``*`` = everyone, ``""`` = nobody)."""
    if acl is None:
        return False
    text = acl.strip()
    if text == "*":
        return True
    if not acl:
        return False
    parts = acl.split(" ", 1)
    users = {u for u in parts[0].split(",") if u}
    grps = {g for g in (parts[1].split(",") if len(parts) > 1 else []) if g}
    if "*" in users or user in users:
        return True
    return "*" in grps or any(g in grps for g in groups)


def check_submit_access(queues: dict, path: str, user: str, groups: tuple[str, ...]) -> bool:
    """``CheckSubmitAccess``: the queue's submit or admin ACL, or any ancestor's, admits the user."""
    cur = queues.get(path)
    while cur is not None:
        if _acl_admits(cur.submit_acl, user, groups) or _acl_admits(cur.admin_acl, user, groups):
            return True
        cur = queues.get(cur.parent) if cur.parent else None
    return False


def _filter_allows(rule: PlacementRule, user: str, groups: tuple[str, ...]) -> bool:
    """The rule's user/group filter (``allow`` default, ``deny`` inverts); one-entry lists may be regexps."""
    f = rule.filter
    ftype = (f.type or "allow").lower()
    users = list(f.users or ())
    grps = list(f.groups or ())
    if not users and not grps:
        return True

    def match(values: list[str], candidates: tuple[str, ...]) -> bool:
        if len(values) == 1 and any(c in values[0] for c in "^$*+?()[{}|"):
            try:
                rx = re.compile(values[0])
            except re.error:
                return False
            return any(rx.fullmatch(c) or rx.match(c) for c in candidates)
        return any(c in values for c in candidates)

    hit = match(users, (user,)) or match(grps, groups)
    return hit if ftype == "allow" else not hit


@dataclass(frozen=True)
class _App:
    queue: str  # the submitted queue name ("" when none)
    user: str
    groups: tuple[str, ...]
    tags: dict[str, str]


def _run_rule(rule: PlacementRule, app: _App, exists: Callable[[str], object]) -> str:
    """``placeApplication`` of one rule: a queue path, or "" when the rule does not apply."""
    if not _filter_allows(rule, app.user, app.groups):
        return ""
    name = rule.name.lower()
    if name == "provided":
        return _place(rule, app, exists, app.queue, fully_qualified_ok=True, escape=True)
    if name == "user":
        return _place(rule, app, exists, app.user, fully_qualified_ok=False, escape=True)
    if name == "tag":
        value = app.tags.get(rule.value.lower()) if rule.value else None
        return _place(rule, app, exists, value, fully_qualified_ok=True, escape=True)
    if name == "fixed":
        return _place(rule, app, exists, rule.value, fully_qualified_ok=True, escape=False)
    return ""


def _place(rule: PlacementRule, app: _App, exists: Callable[[str], object], value: str | None, *,
           fully_qualified_ok: bool, escape: bool) -> str:
    """The common tail of the provided / user / tag / fixed rules: a fully qualified value is taken
    as it is (lower-cased), else it is placed under the parent rule's queue (if the rule has one)."""
    if not value:
        return ""
    if fully_qualified_ok and value.lower().startswith("root."):
        return value.lower()
    parent = ""
    if rule.parent is not None:
        parent = _run_rule(rule.parent, app, exists)
        if not parent:
            return ""
    return _qualify(parent, replace_dot(value) if escape else value)


def _qualify(parent: str, name: str) -> str:
    base = parent.lower() if parent else "root"
    if not base.startswith("root"):
        base = "root." + base
    return f"{base}.{name.lower()}"


def place(rules: tuple[PlacementRule, ...], queues: dict, submitted: str, user: str, groups: tuple[str, ...],
          tags: dict[str, str]) -> Placement:
    """The leaf queue for an application submitted to ``submitted`` (may be "")."""
    app = _App(submitted or "", user, groups, tags)
    effective = rules or (PlacementRule(name="provided", create=False),)
    implicit = not rules
    denied: list[str] = []
    for rule in effective:
        path = _run_rule(rule, app, queues.get)
        if not path:
            continue
        queue = queues.get(path)
        label = rule.name.lower() + (" (implicit: no placement rules configured)" if implicit else "")
        if queue is None:
            if not rule.create:
                continue
            # walk up to the nearest existing queue: it must be a parent, and admit the user
            parts = path.split(DOT)
            missing: list[str] = []
            cur = path
            while cur not in queues and DOT in cur:
                missing.insert(0, cur)
                cur = cur.rsplit(DOT, 1)[0]
            anchor = queues.get(cur)
            if anchor is None or anchor.leaf or len(parts) < 2:
                continue
            if not check_submit_access(queues, cur, user, groups):
                denied.append(path)
                continue
            return Placement(path, label, tuple(missing), note=f"queue {path} is created by the {rule.name} rule")
        if not queue.leaf:
            continue
        if not check_submit_access(queues, path, user, groups):
            denied.append(path)
            continue
        return Placement(path, label)
    if "root.default" in queues and queues["root.default"].leaf:
        return Placement("root.default", "default queue",
                         note="no placement rule matched; YuniKorn uses root.default")
    why = "no placement rule placed the application"
    if submitted:
        why += f" (asked for queue {submitted!r})"
    if denied:
        why += (f"; user {user} may not submit to {', '.join(denied)} (no submitacl / adminacl on the queue or "
                "an ancestor admits the user)")
    return Placement(None, why)
