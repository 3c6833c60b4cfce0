"""YuniKorn's config validator (``Validate``, configvalidator.go), reporting every
failure instead of the first.

The checks run in YuniKorn's order (the calls of ``Validate``) and each ``Issue`` carries that order, so the one
YuniKorn itself would return is ``min(issues, key=order)``.  Where YuniKorn would have stopped
(a value that does not parse, a rule chain that is malformed) the later checks go on with what
is usable — an unparsable quantity is left out of the sums, a broken chain is not walked — so one
mistake is reported once, not as a cascade.

Messages contain YuniKorn's own text verbatim (configvalidator.go's error texts), followed by what quotactl
knows beyond it (the queue path, the value) in parentheses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from quotactl.model.yunikorn import (
    Limit,
    PartitionConfig,
    PlacementRule,
    QueueConfig,
    QueueRef,
    SchedulerConfig,
    go_list,
    partition_object,
    queue_object,
    rule_object,
)
from quotactl.model.yunikorn_resources import (
    Resource,
    add,
    component_wise_min_permissive,
    fit_in_max_undef,
    format_resource,
    go_string,
    is_zero,
    parse_lenient,
    strictly_greater_than_zero,
)
from quotactl.yunikorn.issues import Issue

USER_RE = re.compile(r"[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?")
GROUP_RE = re.compile(r"[_a-zA-Z][a-zA-Z0-9:_.-]*")
QUEUE_NAME_RE = re.compile(r"[a-zA-Z0-9_:#/@-]{1,64}")
RULE_NAME_RE = re.compile(r"[_a-zA-Z][a-zA-Z0-9_]*")
SPECIAL_RE = re.compile(r"[\^$*+?()\[{}|]")

QUEUE_NAME_MESSAGE = ("invalid queue name, max 64 characters consisting of alphanumeric characters and "
                      "'-', '_', '#', '@', '/', ':' allowed")
ONLY_WILDCARD_GROUP = ("should not specify only one group limit that is using the wildcard. "
                       "There must be at least one limit with a group name defined ")

# The checks ``Validate`` calls, in its order (the order key's second element).
STEP_PARTITION, STEP_STRUCTURE, STEP_LIMITS_STRUCTURE, STEP_QUEUES, STEP_RESOURCES, STEP_PLACEMENT, \
    STEP_NODESORT, STEP_MAXAPPS, STEP_LIMIT_RESOURCE, STEP_LIMIT_APPS = range(1, 11)

OK, NON_EXISTING, NOT_LEAF, LAST_LEAF = "ok", "non-existing", "not-leaf", "last-leaf"


def go_regexp_compiles(text: str) -> bool:
    """Whether Go's ``regexp.Compile`` (RE2 syntax) accepts ``text``, as far as Python can tell:
    Python's ``re`` plus the RE2 refusals (look-around, back-references, possessive and atomic
    groups) and RE2 extras (``[[:alpha:]]``, ``\\pL``) translated."""
    if re.search(r"\(\?[=!<]|\(\?P=|\\[1-9]|\(\?>|[*+?}]\+", text):
        return False
    if re.search(r"\{(\d+)(,\d*)?\}", text):
        for m in re.finditer(r"\{(\d+)(?:,(\d*))?\}", text):
            low, high = m.group(1), m.group(2) or ""
            if len(low) > 4 or len(high) > 4 or int(low) > 1000 or (high and int(high) > 1000):
                return False
    candidate = re.sub(r"\[:(\^?)([a-z]+):\]", "a", text)
    candidate = re.sub(r"\\[pP](\{[A-Za-z_]+\}|[A-Za-z])", "a", candidate)
    try:
        re.compile(candidate)
    except (re.error, OverflowError, RecursionError):
        return False
    return True


def quote(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


class Validator:
    def __init__(self, config: SchedulerConfig):
        self.config = config
        self.issues: list[Issue] = []
        self.seq = 0
        self._reported_quantities: set[tuple] = set()
        self._p = 0

    # ------------------------------------------------------------------------------------------
    def add(self, kind: str, step: int, message: str, obj: str, field: tuple, at: tuple | None = None,
            value: bool = False, hint: str | None = None) -> None:
        self.seq += 1
        self.issues.append(Issue(kind, message, obj, tuple(field), None if at is None else tuple(at), value,
                                 (self._p, step, self.seq), hint=hint))

    def parsed(self, conf: dict | None, path: tuple, obj: str, step: int, prefix: str = "",
               report: bool = True) -> Resource:
        """The resource of a config map (what parses), reporting each bad value once."""
        res, errors = parse_lenient(conf)
        if report:
            for name, err in errors.items():
                key = path + (name,)
                if key in self._reported_quantities:
                    continue
                self._reported_quantities.add(key)
                raw = (conf or {}).get(name, "")
                self.add("quantity", step, f"{prefix}{err} ({name}: {quote(raw)})", obj, path, at=key, value=True,
                         hint=_quantity_hint(name, raw, err))
        return res

    # ------------------------------------------------------------------------------------------
    def run(self) -> list[Issue]:
        seen: set[str] = set()
        for p in self.config.partitions:
            self._p = p.index
            name = p.normalized_name
            if name.lower() in seen:
                self.add("partition-duplicate", STEP_PARTITION, f"duplicate partition name found with name {name}",
                         partition_object(p), p.path + ("name",), value=True,
                         hint="give every partition a unique name (an empty name and any case of 'default' "
                              "are all the partition 'default')")
            seen.add(name.lower())
            self.partition(p)
        return self.issues

    def partition(self, p: PartitionConfig) -> None:
        pobj = partition_object(p)
        if p.queues is None:
            self.add("queues-missing", STEP_STRUCTURE, "queue config is not set", pobj, p.path + ("queues",),
                     hint="every partition needs a queues list, at least '- name: root'")
        root = p.root()
        root_ref = QueueRef(root, ("root",), p, ())
        if p.queues is not None and not root.inserted and (
                root.resources.guaranteed is not None or root.resources.max is not None):
            which = [k for k, v in (("guaranteed", root.resources.guaranteed), ("max", root.resources.max))
                     if v is not None]
            self.add("root-resources", STEP_STRUCTURE, "root queue must not have resource limits set "
                     f"(root has resources.{' and resources.'.join(which)})", queue_object(p, ("root",)),
                     root.path + ("resources",),
                     hint="remove resources from root: its max is the cluster size and it has no guarantee; "
                          "put limits on a child queue")
        # 5.4 partition limits vs root limits
        p_limits = p.limits or ()
        root_limits: tuple[Limit, ...] = root.limits or ()
        root_owner = queue_object(p, ("root",))
        if p_limits and root_limits:
            if [x.value_key() for x in p_limits] != [x.value_key() for x in root_limits]:
                self.add("limits-mismatch", STEP_LIMITS_STRUCTURE,
                         "partition limits and root queue limits are not equivalent", pobj, p.path + ("limits",),
                         hint="define user/group limits once: either on the partition or on the root queue")
                self.check_limits(p_limits, root_ref, pobj)
        elif p_limits:
            root_limits, root_owner = p_limits, pobj
        # 5.5 .. 5.10
        self.walk_queues(root_ref, root_limits, root_owner)
        self.check_resources(root_ref, None)
        self.check_placement(p, root)
        self.check_nodesort(p)
        self.check_maxapps(root_ref)
        self.check_limit_tree(root_ref, root_limits, root_owner, {}, {}, {}, {})

    # ------------------------------------------------------------------------------ 5.5 -------
    def walk_queues(self, ref: QueueRef, root_limits: tuple[Limit, ...], root_owner: str) -> None:
        q = ref.queue
        obj = queue_object(ref.partition, ref.names)
        for fieldname in ("adminacl", "submitacl"):
            acl = getattr(q, fieldname).strip()
            if acl and acl != "*" and len(acl.split()) > 2:
                self.add("acl", STEP_QUEUES, f"multiple spaces found in ACL: '{acl}'", obj, q.path + (fieldname,),
                         value=True,
                         hint="an ACL is 'user1,user2 group1,group2': comma-separated users, ONE space, "
                              "comma-separated groups")
        limits = root_limits if ref.is_root else (q.limits or ())
        owner = root_owner if ref.is_root else obj
        self.check_limits(limits, ref, owner)
        seen: set[str] = set()
        for child in q.children:
            cobj = queue_object(ref.partition, ref.names + (child.name,))
            if not QUEUE_NAME_RE.fullmatch(child.name):
                self.add("queue-name", STEP_QUEUES, f"{QUEUE_NAME_MESSAGE} (name {quote(child.name)})", cobj,
                         child.path + ("name",), value=True, hint=_queue_name_hint(child.name))
            low = child.name.lower()
            if low in seen:
                self.add("queue-duplicate", STEP_QUEUES,
                         f"duplicate child name found with name '{child.name}', level {ref.level + 1}", cobj,
                         child.path + ("name",), value=True,
                         hint="sibling queue names must differ (YuniKorn compares them case-insensitively)")
            seen.add(low)
        for child in q.children:
            self.walk_queues(QueueRef(child, ref.names + (child.name,), ref.partition, ref.ancestors + (q,)),
                             root_limits, root_owner)

    def check_limits(self, limits: Iterable[Limit], ref: QueueRef, owner: str) -> None:
        q = ref.queue
        users: set[str] = set()
        groups: set[str] = set()
        only_wildcard_reported = False
        for lim in limits:
            lp = lim.path
            if not lim.users and not lim.groups:
                self.add("limit-empty", STEP_QUEUES, f"empty user and group lists defined in limit '{lim.go_struct()}'",
                         owner, lp, hint="list the users and/or groups the limit applies to ('*' for everyone)")
            for j, user in enumerate(lim.users or ()):
                at = lp + ("users", j)
                if user != "*" and not USER_RE.fullmatch(user):
                    self.add("limit-name", STEP_QUEUES, f"invalid limit user name '{user}' in limit definition",
                             owner, lp + ("users",), at=at, value=True,
                             hint="a user name starts with a letter or '_' and uses letters, digits and :#/_.@-")
                if user in users:
                    self.add("limit-duplicate", STEP_QUEUES, f"duplicated user name '{user}', already exists", owner,
                             lp + ("users",), at=at, value=True,
                             hint="a user may appear in only one limit entry of a queue")
                users.add(user)
                if "*" in users and user != "*":
                    self.add("limit-wildcard", STEP_QUEUES,
                             f"should not set no wildcard user {user} after wildcard user limit", owner,
                             lp + ("users",), at=at, value=True,
                             hint="put the '*' user entry last in the queue's limits")
            for j, group in enumerate(lim.groups or ()):
                at = lp + ("groups", j)
                if group != "*" and not GROUP_RE.fullmatch(group):
                    self.add("limit-name", STEP_QUEUES, f"invalid limit group name '{group}' in limit definition",
                             owner, lp + ("groups",), at=at, value=True,
                             hint="a group name starts with a letter or '_' and uses letters, digits and :_.- "
                                  "(no '@')")
                if group in groups:
                    self.add("limit-duplicate", STEP_QUEUES, f"duplicated group name '{group}', already exists",
                             owner, lp + ("groups",), at=at, value=True,
                             hint="a group may appear in only one limit entry of a queue")
                groups.add(group)
                if "*" in groups and group != "*":
                    self.add("limit-wildcard", STEP_QUEUES,
                             f"should not set no wildcard group {group} after wildcard group limit", owner,
                             lp + ("groups",), at=at, value=True,
                             hint="put the '*' group entry last in the queue's limits")
            if groups == {"*"} and not only_wildcard_reported:
                only_wildcard_reported = True
                self.add("limit-wildcard", STEP_QUEUES, ONLY_WILDCARD_GROUP, owner,
                         lp + ("groups",),
                         hint="a '*' group limit alone is the queue limit; add a limit for a named group before it, "
                              "or use the queue's resources/maxapplications instead")
            res: Resource = {}
            if lim.maxresources:
                res = self.parsed(lim.maxresources, lp + ("maxresources",), owner, STEP_QUEUES)
                bad = any(k not in res for k in lim.maxresources)
                if not bad and not strictly_greater_than_zero(res):
                    self.add("limit-zero", STEP_QUEUES, f"MaxResources should be greater than zero in '{lim.limit}' "
                             f"limit (maxresources {go_string(res)})", owner, lp + ("maxresources",),
                             hint="set at least one resource above zero, or drop maxresources and use "
                                  "maxapplications")
            if lim.maxapplications == 0 and not lim.maxresources:
                self.add("limit-unbounded", STEP_QUEUES,
                         f"invalid resource combination for limit {lim.limit} all resource limits are null",
                         owner, lp, hint="set maxresources and/or maxapplications (above zero) on the limit")
            if q.maxapplications != 0 and q.maxapplications < lim.maxapplications:
                self.add("limit-apps-queue", STEP_QUEUES,
                         f"invalid MaxApplications settings for limit {lim.limit} exceed current the queue "
                         f"MaxApplications (limit {lim.maxapplications} > queue {q.maxapplications})",
                         owner, lp + ("maxapplications",), value=True,
                         hint="a limit's maxapplications cannot exceed the queue's own maxapplications")
            if not ref.is_root:
                qmax = self.parsed(q.resources.max, q.resources.path + ("max",), queue_object(ref.partition, ref.names),
                                   STEP_QUEUES, prefix=f"parse queue {q.name} max resource failed: ")
                if not fit_in_max_undef(qmax, res):
                    self.add("limit-res-queue", STEP_QUEUES,
                             f"invalid MaxResources settings for limit {lim.limit} exeecd current the queue "
                             f"MaxResources (limit {go_string(res)}, queue max {go_string(qmax)})",
                             owner, lp + ("maxresources",),
                             hint="a limit's maxresources cannot exceed the queue's max in any resource")

    # ------------------------------------------------------------------------------ 5.6 -------
    def check_resources(self, ref: QueueRef, parent_max: Resource | None) -> Resource:
        q = ref.queue
        obj = queue_object(ref.partition, ref.names)
        rp = q.resources.path
        if ref.is_root:
            g: Resource = {}
            m: Resource = {}
        else:
            g = self.parsed(q.resources.guaranteed, rp + ("guaranteed",), obj, STEP_RESOURCES)
            m = self.parsed(q.resources.max, rp + ("max",), obj, STEP_RESOURCES)
        if not fit_in_max_undef(m, g):
            self.add("guaranteed-max", STEP_RESOURCES,
                     f"guaranteed resource {go_string(g)} is larger than maximum resource {go_string(m)} for queue "
                     f"{q.name}", obj, rp + ("guaranteed",),
                     hint=f"guaranteed {format_resource(g)} vs max {format_resource(m)}: lower the guarantee or raise "
                          "the max")
        if not fit_in_max_undef(parent_max, m):
            self.add("max-parent", STEP_RESOURCES,
                     f"max resource of parent {go_string(parent_max)} is smaller than maximum resource {go_string(m)} "
                     f"for queue {q.name}", obj, rp + ("max",),
                     hint=f"max {format_resource(m)} vs ancestors' max {format_resource(parent_max)}: a queue's max "
                          "cannot exceed its parent's (or the nearest ancestor's that sets one)")
        eff = component_wise_min_permissive(m, parent_max)
        total: Resource = {}
        for child in q.children:
            total = add(total, self.check_resources(
                QueueRef(child, ref.names + (child.name,), ref.partition, ref.ancestors + (q,)), eff))
        if not fit_in_max_undef(g, total):
            self.add("children-guaranteed", STEP_RESOURCES,
                     f"guaranteed resource of parent {go_string(g)} is smaller than sum of guaranteed resources "
                     f"{go_string(total)} of the children for queue {q.name}", obj, rp + ("guaranteed",),
                     hint=f"guaranteed {format_resource(g)} vs children's sum {format_resource(total)}: raise the "
                          "parent's guarantee or lower the children's")
        if not fit_in_max_undef(eff, total):
            self.add("children-max", STEP_RESOURCES,
                     f"max resource {go_string(eff)} is smaller than sum of guaranteed resources {go_string(total)} "
                     f"of the children for queue {q.name}", obj, rp + ("max",),
                     hint=f"max {format_resource(eff)} vs children's guarantees {format_resource(total)}: the "
                          "guarantees must fit in the parent's (effective) max")
        return total if is_zero(g) else g

    # ------------------------------------------------------------------------------ 5.7 -------
    def check_placement(self, p: PartitionConfig, root: QueueConfig) -> None:
        rules = p.rules
        if not rules:
            return
        for i, rule in enumerate(rules):
            obj = rule_object(p, i)
            cur: PlacementRule | None = rule
            while cur is not None:
                if not RULE_NAME_RE.fullmatch(cur.name):
                    self.add("rule-name", STEP_PLACEMENT,
                             f"invalid rule name {cur.name}, a name must be a valid identifier", obj,
                             cur.path + ("name",), value=True,
                             hint="rule names are provided, user, tag or fixed")
                self.check_filter(cur, obj)
                cur = cur.parent
        for i, rule in enumerate(rules):
            self.check_static_path(p, root, i, rule)

    def check_filter(self, rule: PlacementRule, obj: str) -> None:
        f = rule.filter
        fp = f.path
        if f.type and f.type.lower() not in ("allow", "deny"):
            self.add("filter-type", STEP_PLACEMENT,
                     f"invalid rule filter type {f.type}, filter type  must be either '', allow or deny", obj,
                     fp + ("type",), value=True, hint="use type: allow (the default) or type: deny")
        for what, values, regex in (("user", f.users, USER_RE), ("group", f.groups, GROUP_RE)):
            if values is None or len(values) != 1:
                continue
            entry = values[0]
            if regex.fullmatch(entry):
                continue
            if go_regexp_compiles(entry) and SPECIAL_RE.search(entry):
                continue
            self.add("filter-list", STEP_PLACEMENT,
                     f"invalid rule filter {what} list is not a proper list or regexp: {go_list(values)}", obj,
                     fp + (f"{what}s",), at=fp + (f"{what}s", 0), value=True,
                     hint=f"a single entry must be a valid {what} name or a regular expression "
                          "(with at least one of ^$*+?()[{}|)")

    def check_static_path(self, p: PartitionConfig, root: QueueConfig, index: int, rule: PlacementRule) -> None:
        obj = rule_object(p, index)
        chain = rule.chain()
        names = "->".join(r.name for r in chain)
        static = ""
        dynamic = False
        last_fixed: PlacementRule | None = None
        for r in chain:
            if dynamic:
                continue
            if r.name != "fixed":
                if static == "":
                    static = "<dynamic>"
                dynamic = True
                continue
            value = r.value
            if value.startswith("root"):
                if static != "":
                    self.add("fixed-qualified", STEP_PLACEMENT,
                             f"illegal fully qualified 'fixed' rule with value {value}", obj, r.path + ("value",),
                             value=True,
                             hint="only the outermost fixed rule of a chain may name a full path (root....); "
                                  "inner fixed rules add one level each")
                    return
                static = value
            else:
                if static == "":
                    static = "root"
                static = f"{static}.{value}"
            last_fixed = r
        if not static.startswith("root"):
            return
        parts = static.lower().split(".")
        result, last = _check_hierarchy(parts, rule.create, dynamic, [root], None)
        field = (last_fixed or rule).path + ("value",)
        prefix = f"placement rule no. #{index} ({names})"
        if result == NOT_LEAF:
            why = ("a rule chain with a dynamic part must end its fixed part on a queue with 'parent: true'"
                   if dynamic else "a fixed rule must end on a leaf queue (it is a parent, or says parent: true)")
            self.add("placement-not-leaf", STEP_PLACEMENT, f"{prefix} references a queue ({static}) which is not a leaf",
                     obj, field, value=True, hint=why)
        elif result == NON_EXISTING:
            self.add("placement-missing", STEP_PLACEMENT,
                     f"{prefix} references non-existing queues ({static}) and create is 'false'", obj, field,
                     value=True, hint="create the queue in the config, or set create: true on the rule")
        elif result == LAST_LEAF:
            self.add("placement-below-leaf", STEP_PLACEMENT,
                     f"{prefix} references non-existing queues ({static}) which cannot be created because the last "
                     f"queue ({last}) in the hierarchy is a leaf", obj, field, value=True,
                     hint=f"mark {last} 'parent: true' or point the rule at an existing leaf")

    # ------------------------------------------------------------------------------ 5.8 -------
    def check_nodesort(self, p: PartitionConfig) -> None:
        nsp = p.nodesortpolicy
        pobj = partition_object(p)
        if nsp.type not in ("", "fair", "binpacking"):
            self.add("nodesort-type", STEP_NODESORT, f"undefined policy: {nsp.type}", pobj, nsp.path + ("type",),
                     value=True, hint="nodesortpolicy.type is 'fair' (default) or 'binpacking', lower case")
        for name, weight in (nsp.resourceweights or {}).items():
            if weight < 0:
                self.add("nodesort-weight", STEP_NODESORT, f"negative resource weight for {name} is not allowed",
                         pobj, nsp.path + ("resourceweights",), at=nsp.path + ("resourceweights", name), value=True,
                         hint="resource weights are >= 0 (default 1.0)")

    # ------------------------------------------------------------------------------ 5.9 -------
    def check_maxapps(self, ref: QueueRef) -> None:
        q = ref.queue
        for child in q.children:
            cref = QueueRef(child, ref.names + (child.name,), ref.partition, ref.ancestors + (q,))
            cobj = queue_object(ref.partition, cref.names)
            where = f"(parent {ref.dotted}: {q.maxapplications}, child {cref.dotted}: {child.maxapplications})"
            if q.maxapplications != 0 and q.maxapplications < child.maxapplications:
                self.add("queue-maxapps", STEP_MAXAPPS,
                         f"parent maxApplications must be larger than child maxApplications {where}", cobj,
                         child.path + ("maxapplications",), value=True,
                         hint="a child's maxapplications cannot exceed its parent's")
            elif q.maxapplications != 0 and child.maxapplications == 0:
                self.add("queue-maxapps", STEP_MAXAPPS,
                         "maxApplications is either undefined or zero, which is not allowed when parent queue's "
                         f"maxApplications is defined {where}", cobj, child.path + ("maxapplications",),
                         hint=f"set maxapplications (at most {q.maxapplications}) on {cref.dotted}: once a queue sets "
                              "it, every descendant must")
            self.check_maxapps(cref)

    # ------------------------------------------------------------------------------ 5.10 ------
    def check_limit_tree(self, ref: QueueRef, root_limits, root_owner: str, users_res: dict, groups_res: dict,
                         users_apps: dict, groups_apps: dict) -> None:
        q = ref.queue
        limits = root_limits if ref.is_root else (q.limits or ())
        owner = root_owner if ref.is_root else queue_object(ref.partition, ref.names)
        new = [dict(users_res), dict(groups_res), dict(users_apps), dict(groups_apps)]
        for lim in limits:
            res = self.parsed(lim.maxresources, lim.path + ("maxresources",), owner, STEP_QUEUES, report=False)
            own = lim.maxapplications
            for word, names, inh_res, out_res, inh_apps, out_apps in (
                    ("user", lim.users, users_res, new[0], users_apps, new[2]),
                    ("group", lim.groups, groups_res, new[1], groups_apps, new[3])):
                for name in names or ():
                    if name in inh_res:
                        cap = inh_res[name]
                        if not fit_in_max_undef(cap, res):
                            self.add("limit-res-ancestor", STEP_LIMIT_RESOURCE,
                                     f"{word} {name} max resource {go_string(res)} of queue {q.name} is greater than "
                                     f"immediate or ancestor parent maximum resource {go_string(cap)}", owner,
                                     lim.path + ("maxresources",),
                                     hint=f"a {word} limit deeper in the tree must fit the same {word}'s limit above")
                        out_res[name] = component_wise_min_permissive(res, cap)
                    elif name != "*" and "*" in inh_res:
                        cap = inh_res["*"]
                        if not fit_in_max_undef(cap, res):
                            self.add("limit-res-ancestor", STEP_LIMIT_RESOURCE,
                                     f"{word} {name} max resource {go_string(res)} of queue {q.name} is greater than "
                                     f"wildcard maximum resource {go_string(cap)} of immediate or ancestor parent "
                                     "queue", owner, lim.path + ("maxresources",),
                                     hint=f"a named {word} limit must fit the '*' {word} limit of an ancestor")
                        out_res[name] = res
                    else:
                        out_res[name] = res
                    if name in inh_apps:
                        cap_apps = inh_apps[name]
                        if cap_apps != 0 and (cap_apps < own or own == 0):
                            self.add("limit-apps-ancestor", STEP_LIMIT_APPS,
                                     f"{word} {name} max applications {own} of queue {q.name} is greater than "
                                     f"immediate or ancestor parent max applications {cap_apps}", owner,
                                     lim.path + ("maxapplications",), value=True,
                                     hint=(f"set maxapplications (at most {cap_apps}) on this {word} limit"
                                           if own == 0 else f"lower it to at most {cap_apps}"))
                        out_apps[name] = min(own, cap_apps)
                    elif name != "*" and "*" in inh_apps:
                        cap_apps = inh_apps["*"]
                        if cap_apps != 0 and (cap_apps < own or own == 0):
                            self.add("limit-apps-ancestor", STEP_LIMIT_APPS,
                                     f"{word} {name} max applications {own} of queue {q.name} is greater than "
                                     f"wildcard max applications {cap_apps} of immediate or ancestor parent queue",
                                     owner, lim.path + ("maxapplications",), value=True,
                                     hint=f"a named {word} limit must fit the '*' {word} limit of an ancestor")
                        out_apps[name] = own
                    else:
                        out_apps[name] = own
        for child in q.children:
            self.check_limit_tree(QueueRef(child, ref.names + (child.name,), ref.partition, ref.ancestors + (q,)),
                                  root_limits, root_owner, *new)


def _check_hierarchy(parts: list[str], create: bool, dynamic: bool, conf: list[QueueConfig] | tuple,
                     parent: QueueConfig | None) -> tuple[str, str]:
    """``checkQueueHierarchyForPlacement``: names compared case-sensitively with the lower-cased path;
    "parent" is the explicit flag (root always)."""
    while True:
        name = parts[0]
        if not conf:
            if parent is not None and not parent.parent:
                return LAST_LEAF, parent.name
            return (NON_EXISTING, "") if not create else (OK, "")
        found = next((q for q in conf if q.name == name), None)
        if found is None:
            return (NON_EXISTING, "") if not create else (OK, "")
        if len(parts) == 1:
            if dynamic:
                return (OK, "") if found.parent else (NOT_LEAF, "")
            return (NOT_LEAF, "") if found.parent else (OK, "")
        parts = parts[1:]
        conf = found.children
        parent = found


def _quantity_hint(name: str, raw: str, err: str) -> str:
    if err == "invalid suffix" and raw.strip().endswith("m"):
        return f"the 'm' suffix is only allowed on vcore; write {name} as a whole number with k, M, G, Ki, Mi, Gi..."
    if err == "invalid suffix":
        return "suffixes are k, M, G, T, P, E (powers of 1000) and Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024)"
    if "overflow" in err:
        return "the value exceeds a 64-bit integer in YuniKorn's units (vcore is counted in millicores)"
    if not raw.strip():
        return f"give {name} a value, or remove the key"
    return ("YuniKorn quantities are whole numbers with an optional suffix (10, 500m for vcore, 8Gi): "
            "no decimal point, sign or exponent")


def _queue_name_hint(name: str) -> str:
    if not name:
        return "every queue needs a name"
    if len(name) > 64:
        return f"the name is {len(name)} characters long; at most 64 are allowed"
    bad = sorted({c for c in name if not re.fullmatch(r"[a-zA-Z0-9_:#/@-]", c)})
    return f"remove {' '.join(repr(c) for c in bad)} from the name" if bad else "rename the queue"


def validate(config: SchedulerConfig) -> list[Issue]:
    return Validator(config).run()


def first_rejection(issues: list[Issue]) -> Issue | None:
    """The failure YuniKorn's fail-fast validator returns (the earliest in its check order)."""
    ordered = [i for i in issues if i.order]
    return min(ordered, key=lambda i: i.order) if ordered else None
