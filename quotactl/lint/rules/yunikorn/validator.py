"""YK1xx: every rule of YuniKorn's config validator (``Validate``, configvalidator.go), in its
order.  The checks themselves live in ``quotactl.yunikorn.validate`` (one pass, in
YuniKorn's order); each rule here reports the issues of its kind."""

from __future__ import annotations

from collections.abc import Iterator

from quotactl.lint.rule import RuleDoc
from quotactl.lint.rules.yunikorn.base import VALIDATOR, YKContext, validator_rule, yk_rule
from quotactl.load.yunikorn import YuniKornInput
from quotactl.model.yunikorn import object_for_path
from quotactl.yunikorn.issues import Issue
from quotactl.yunikorn.validate import first_rejection, validate

# --------------------------------------------------------------------------- YK100 ------------


def rejection(inp: YuniKornInput, issues: list[Issue] | None = None) -> Issue | None:
    """The failure YuniKorn itself reports for ``inp`` (its validator stops at the first), or None."""
    syntax = [n for n in inp.notes if n.kind == "syntax"]
    if syntax:
        n = syntax[0]
        return Issue("syntax", n.message, "config", (), file_pos=(n.file, n.line, n.column), order=(-2, 0, 0))
    decode = [Issue("decode", "yaml: unmarshal errors: " + e.message,
                    object_for_path(inp.config, e.path if e.kind == "type" else e.path[:-1]), e.path,
                    embedded=(e.line - 1, e.column), order=(-1, 0, e.line)) for e in inp.decode_errors]
    return first_rejection(decode + list(issues if issues is not None else validate(inp.config)))


def check_verdict(inp: YuniKornInput, ctx: YKContext) -> Iterator[Issue]:
    first = rejection(inp, ctx.issues)
    if first is None:
        return
    total = len(inp.decode_errors) + len(ctx.issues)
    more = f"; quotactl found {total} problems in all" if total > 1 else ""
    yield Issue("verdict", f"YuniKorn rejects this configuration; its validator stops at the first failure and "
                f"reports: {first.message}{more}", first.object, first.field, at=first.at, value=first.value,
                embedded=first.embedded, file_pos=first.file_pos, type=None,
                hint="this is the error kubectl apply (admission webhook) and /ws/v1/validate-conf print; a running "
                     "scheduler keeps its previous configuration")


yk_rule(
    code="YK100", name="yunikorn-verdict", severity="info", layer="validator",
    summary="which error YuniKorn itself reports (its validator stops at the first)",
    doc=RuleDoc(
        what="YuniKorn's validator is fail-fast: it returns one error string, the first failure in its check "
             "order (decoding, then per partition: names, queue structure, limits structure, ACLs / limits / queue "
             "names, resources, placement rules, node sorting, maxapplications, user/group limits). quotactl reports "
             "every problem; this note says which one YuniKorn shows.",
        why="It is the message `kubectl apply` (through the admission webhook) or /ws/v1/validate-conf will print.",
        fix="Fix the errors reported with it.",
        source=f"{VALIDATOR} Validate (fails on the first error)",
    ),
    check=check_verdict,
)

# --------------------------------------------------------------------------- 5.2 / 5.3 / 5.4 --

validator_rule("YK101", "partition-name-duplicate", ("partition-duplicate",),
               "two partitions with the same name (after normalisation)", RuleDoc(
                   what="Partition names are compared case-insensitively; an empty name and any case of `default` "
                        "are the partition `default`.",
                   why="`duplicate partition name found with name <name>`: the config is rejected.",
                   fix="Give every partition a unique name.",
                   bad="partitions:\n  - name: default\n    queues: [{name: root}]\n  - name: DEFAULT\n    queues: [{name: root}]\n",
                   good="partitions:\n  - name: default\n    queues: [{name: root}]\n  - name: gpu\n    queues: [{name: root}]\n",
                   source=f"{VALIDATOR} Validate (duplicate partition name)"))

validator_rule("YK102", "partition-queues-missing", ("queues-missing",),
               "a partition without a queues list", RuleDoc(
                   what="`queues` is required on every partition (`[]` is accepted; root is then inserted).",
                   why="`queue config is not set`: the config is rejected.",
                   fix="Add `queues: [{name: root}]`.",
                   bad="partitions:\n  - name: default\n", good="partitions:\n  - name: default\n    queues:\n      - name: root\n",
                   source=f"{VALIDATOR} checkQueuesStructure"))

validator_rule("YK103", "root-queue-resources", ("root-resources",),
               "resources set on the root queue", RuleDoc(
                   what="The root queue may not carry `resources.guaranteed` or `resources.max`, not even `{}`: its max "
                        "is the cluster size and it has no guarantee.",
                   why="`root queue must not have resource limits set`: the config is rejected.",
                   fix="Remove resources from root; limit a child queue instead.",
                   bad="- name: root\n  resources:\n    max: {vcore: 100}\n",
                   good="- name: root\n  queues:\n    - name: tenants\n      resources:\n        max: {vcore: 100}\n",
                   source=f"{VALIDATOR} checkQueuesStructure"))

validator_rule("YK104", "partition-limits-mismatch", ("limits-mismatch",),
               "partition limits and root limits both set and different", RuleDoc(
                   what="Partition-level `limits` are the root queue's limits. If both are written they must be "
                        "identical (same entries, same order).",
                   why="`partition limits and root queue limits are not equivalent`: the config is rejected.",
                   fix="Keep the limits in one place.",
                   source=f"{VALIDATOR} checkLimitsStructure"))

# --------------------------------------------------------------------------- 5.5 --------------

validator_rule("YK105", "acl-syntax", ("acl",), "an ACL with more than one space-separated part beyond users and groups",
               RuleDoc(
                   what="An ACL is `users groups`: comma-separated users, one space, comma-separated groups; `*` is "
                        "everyone, an empty ACL nobody. After trimming it must split into at most two fields.",
                   why="`multiple spaces found in ACL: '<acl>'`: the config is rejected.",
                   fix="Join users (and groups) with commas, not spaces.",
                   bad="submitacl: alice bob admins\n", good="submitacl: alice,bob admins\n",
                   source=f"{VALIDATOR} checkACL"))

validator_rule("YK106", "limit-without-users-or-groups", ("limit-empty",),
               "a user/group limit that names no users and no groups", RuleDoc(
                   what="Every limit entry needs `users` or `groups` (or both).",
                   why="`empty user and group lists defined in limit '<limit>'`: the config is rejected.",
                   fix="List the users / groups the limit applies to (`*` for everyone).",
                   bad="limits:\n  - limit: cap\n    maxapplications: 5\n",
                   good="limits:\n  - limit: cap\n    users: ['*']\n    maxapplications: 5\n",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK107", "limit-name-invalid", ("limit-name",), "a user or group name YuniKorn does not accept in a limit",
               RuleDoc(
                   what="User names match `^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$`, group names "
                        "`^[_a-zA-Z][a-zA-Z0-9:_.-]*$` (no `@` in groups), or are `*`.",
                   why="`invalid limit user name '<u>' in limit definition` / `invalid limit group name ...`: the config "
                       "is rejected.",
                   fix="Use the name as the identity provider reports it, within those characters.",
                   bad="groups: ['group@domain']\n", good="groups: ['group-domain']\n",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK108", "limit-name-duplicate", ("limit-duplicate",),
               "the same user or group in two limit entries of one queue", RuleDoc(
                   what="Within one queue's limits a user (or group) may appear once, across all entries.",
                   why="`duplicated user name '<u>', already exists` / `duplicated group name '<g>'`: the config is "
                       "rejected (the docs say duplicates are ignored; the validator rejects them).",
                   fix="Merge the two entries.",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK109", "limit-wildcard-order", ("limit-wildcard",),
               "a named user/group after the wildcard, or a wildcard group limit alone", RuleDoc(
                   what="The `*` user (group) entry must come after every named user (group) of the queue's limits, "
                        "and a `*` group limit needs at least one named group limit before it.",
                   why="`should not set no wildcard user <u> after wildcard user limit`, `... group ...`, or `should not "
                       "specify only one group limit that is using the wildcard`: the config is rejected.",
                   fix="Put the `*` entries last; add a named group limit, or use the queue's own limits.",
                   bad="limits:\n  - users: ['*']\n    maxapplications: 5\n  - users: [alice]\n    maxapplications: 2\n",
                   good="limits:\n  - users: [alice]\n    maxapplications: 2\n  - users: ['*']\n    maxapplications: 5\n",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK110", "quantity-invalid", ("quantity",), "a resource quantity YuniKorn cannot parse", RuleDoc(
    what="Quantities are digits with an optional suffix (k M G T P E, Ki Mi Gi Ti Pi Ei); `vcore` is in cores and "
         "also takes `m` (millicores). No sign, decimal point or exponent; empty values are invalid.",
    why="`invalid quantity`, `invalid quantity: overflow` or `invalid suffix` (prefixed by `parse queue <q> max "
        "resource failed:` when the queue has limits): the config is rejected.",
    fix="Write a whole number with a suffix: `1536Mi`, not `1.5Gi`; `500m` only on vcore.",
    bad="max: {memory: 1.5Gi, vcore: 500m}\n", good="max: {memory: 1536Mi, vcore: 500m}\n",
    source=("yunikorn-core pkg/common/resources/resources.go NewResourceFromConf; "
            "pkg/common/resources/quantity.go ParseQuantity, ParseVCore")))

validator_rule("YK111", "limit-maxresources-zero", ("limit-zero",), "a limit's maxresources without any positive value",
               RuleDoc(
                   what="A non-empty `maxresources` must have at least one value above zero.",
                   why="`MaxResources should be greater than zero in '<limit>' limit`: the config is rejected.",
                   fix="Set a positive value, or remove maxresources.",
                   bad="maxresources: {memory: 0}\n", good="maxresources: {memory: 8Gi}\n",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK112", "limit-without-limits", ("limit-unbounded",),
               "a limit entry that limits nothing (no maxresources, maxapplications 0)", RuleDoc(
                   what="A limit needs `maxresources` (non-empty) or `maxapplications` > 0.",
                   why="`invalid resource combination for limit <limit> all resource limits are null`: the config is "
                       "rejected.",
                   fix="Set maxapplications and/or maxresources.",
                   bad="limits:\n  - users: [alice]\n", good="limits:\n  - users: [alice]\n    maxapplications: 3\n",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK113", "limit-maxapps-above-queue", ("limit-apps-queue",),
               "a limit's maxapplications above the queue's maxapplications", RuleDoc(
                   what="When a queue sets maxapplications, its limits may not allow more.",
                   why="`invalid MaxApplications settings for limit <limit> exceed current the queue MaxApplications`.",
                   fix="Lower the limit or raise the queue's maxapplications.",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK114", "limit-maxresources-above-queue", ("limit-res-queue",),
               "a limit's maxresources above the queue's max", RuleDoc(
                   what="A limit's maxresources must fit the queue's own `resources.max` (types the max does not set "
                        "are unlimited). Not checked on root.",
                   why="`invalid MaxResources settings for limit <limit> exeecd current the queue MaxResources` (sic).",
                   fix="Lower the limit or raise the queue's max.",
                   source=f"{VALIDATOR} checkLimit"))

validator_rule("YK115", "queue-name-invalid", ("queue-name",), "a queue name YuniKorn does not accept", RuleDoc(
    what="Queue names are 1 to 64 characters of letters, digits and `_ - # @ / :`. Dots are not allowed (they separate "
         "path levels).",
    why="`invalid queue name, max 64 characters consisting of alphanumeric characters and '-', '_', '#', '@', '/', "
        "':' allowed`: the config is rejected.",
    fix="Rename the queue.",
    bad="- name: team.a\n", good="- name: team-a\n",
    source=f"{VALIDATOR} checkQueues, IsQueueNameValid"))

validator_rule("YK116", "queue-name-duplicate", ("queue-duplicate",),
               "two sibling queues with the same name (case-insensitive)", RuleDoc(
                   what="Sibling names must differ, compared case-insensitively (queue paths are looked up "
                        "lower-cased).",
                   why="`duplicate child name found with name '<name>', level <n>`: the config is rejected.",
                   fix="Rename or merge one of the two queues.",
                   bad="queues:\n  - name: dev\n  - name: Dev\n", good="queues:\n  - name: dev\n  - name: dev2\n",
                   source=f"{VALIDATOR} checkQueues"))

# --------------------------------------------------------------------------- 5.6 --------------

validator_rule("YK117", "guaranteed-above-max", ("guaranteed-max",), "a queue's guaranteed above its own max", RuleDoc(
    what="Every guaranteed resource must be <= the same resource in the queue's max (types the max does not set are "
         "unlimited).",
    why="`guaranteed resource <G> is larger than maximum resource <M> for queue <q>`: the config is rejected.",
    fix="Lower the guarantee or raise the max.",
    bad="resources:\n  guaranteed: {vcore: 8}\n  max: {vcore: 4}\n",
    good="resources:\n  guaranteed: {vcore: 4}\n  max: {vcore: 8}\n",
    source=f"{VALIDATOR} checkQueueResource"))

validator_rule("YK118", "max-above-parent-max", ("max-parent",), "a queue's max above its parent's (effective) max",
               RuleDoc(
                   what="A queue's max must fit the smallest max set on its ancestors (per resource type).",
                   why="`max resource of parent <PM> is smaller than maximum resource <M> for queue <q>`: the config is "
                       "rejected.",
                   fix="Lower the child's max or raise the ancestor's.",
                   source=f"{VALIDATOR} checkQueueResource"))

validator_rule("YK119", "children-guaranteed-above-guaranteed", ("children-guaranteed",),
               "the children's guarantees add up to more than the parent's guarantee", RuleDoc(
                   what="For every type the parent guarantees, the sum of the children's guarantees (a child without "
                        "one passes up its own children's sum) must fit.",
                   why="`guaranteed resource of parent <G> is smaller than sum of guaranteed resources <S> of the "
                       "children for queue <q>`: the config is rejected.",
                   fix="Raise the parent's guarantee or lower the children's.",
                   source=f"{VALIDATOR} checkQueueResource"))

validator_rule("YK120", "children-guaranteed-above-max", ("children-max",),
               "the children's guarantees add up to more than the parent's (effective) max", RuleDoc(
                   what="The sum of the children's guarantees must fit the parent's effective max.",
                   why="`max resource <EM> is smaller than sum of guaranteed resources <S> of the children for queue "
                       "<q>`: the config is rejected.",
                   fix="Raise the max or lower the guarantees.",
                   source=f"{VALIDATOR} checkQueueResource"))

# --------------------------------------------------------------------------- 5.7 --------------

validator_rule("YK121", "placement-rule-name-invalid", ("rule-name",), "a placement rule name that is not an identifier",
               RuleDoc(
                   what="Rule names (including the names of parent rules) must match `^[_a-zA-Z][a-zA-Z0-9_]*$`.",
                   why="`invalid rule name <name>, a name must be a valid identifier`: the config is rejected.",
                   fix="Use provided, user, tag or fixed.",
                   source=f"{VALIDATOR} checkPlacementRule"))

validator_rule("YK122", "placement-filter-type", ("filter-type",), "a placement filter type other than allow / deny",
               RuleDoc(
                   what="`filter.type` is empty, `allow` or `deny` (any case).",
                   why="`invalid rule filter type <type>, filter type  must be either '', allow or deny`.",
                   fix="Use allow or deny.",
                   source=f"{VALIDATOR} checkPlacementFilter"))

validator_rule("YK123", "placement-filter-list", ("filter-list",),
               "a one-entry filter list that is neither a valid name nor a regexp", RuleDoc(
                   what="A filter `users` (`groups`) list with exactly one entry must be a valid user (group) name, or a "
                        "Go regular expression containing one of `^ $ * + ? ( ) [ { } |`. Longer lists are not checked.",
                   why="`invalid rule filter user list is not a proper list or regexp: [<entries>]`.",
                   fix="Fix the name or the regexp.",
                   bad="filter:\n  users: ['99test']\n", good="filter:\n  users: ['test99']\n",
                   source=f"{VALIDATOR} checkPlacementFilter"))

validator_rule("YK124", "placement-fixed-qualified-twice", ("fixed-qualified",),
               "a second fully qualified fixed rule in one chain", RuleDoc(
                   what="Only the outermost `fixed` rule of a chain may give a full path (starting with root); inner "
                        "ones add a level.",
                   why="`illegal fully qualified 'fixed' rule with value <value>`: the config is rejected.",
                   fix="Write the inner fixed value without the `root.` prefix.",
                   source=f"{VALIDATOR} getLongestPlacementPaths"))

validator_rule("YK125", "placement-queue-missing", ("placement-missing",),
               "a placement rule naming queues that do not exist, with create: false", RuleDoc(
                   what="The static part of a rule chain (its leading fixed rules) must name existing queues unless the "
                        "top-level rule has `create: true`. Names are compared case-sensitively with the lower-cased "
                        "path.",
                   why="`placement rule no. #<i> (<chain>) references non-existing queues (<path>) and create is "
                       "'false'`: the config is rejected.",
                   fix="Add the queues, or set create: true.",
                   source=f"{VALIDATOR} checkQueueHierarchyForPlacement"))

validator_rule("YK126", "placement-below-leaf", ("placement-below-leaf",),
               "a placement rule path that continues below a leaf queue", RuleDoc(
                   what="A static path may not continue below a queue that has no children and no `parent: true`.",
                   why="`placement rule no. #<i> (<chain>) references non-existing queues (<path>) which cannot be "
                       "created because the last queue (<name>) in the hierarchy is a leaf`.",
                   fix="Mark the queue `parent: true`, or point the rule elsewhere.",
                   source=f"{VALIDATOR} checkQueueHierarchyForPlacement"))

validator_rule("YK127", "placement-not-leaf", ("placement-not-leaf",),
               "a fixed rule ending on a parent, or a dynamic chain's fixed part ending on a non-parent", RuleDoc(
                   what="A purely static chain must end on a queue without `parent: true`; a chain with a dynamic part "
                        "(fixed -> tag/user/...) must end its fixed part on a queue with an explicit `parent: true` "
                        "(having children is not enough).",
                   why="`placement rule no. #<i> (<chain>) references a queue (<path>) which is not a leaf`.",
                   fix="Set or remove `parent: true` on that queue, or change the rule.",
                   source=f"{VALIDATOR} checkQueueHierarchyForPlacement"))

# --------------------------------------------------------------------------- 5.8 - 5.10 -------

validator_rule("YK128", "nodesort-policy-undefined", ("nodesort-type",), "an unknown node sorting policy", RuleDoc(
    what="`nodesortpolicy.type` is `fair`, `binpacking` or empty, case-sensitive.",
    why="`undefined policy: <type>`: the config is rejected.",
    fix="Use fair or binpacking (lower case).",
    bad="nodesortpolicy:\n  type: BinPacking\n", good="nodesortpolicy:\n  type: binpacking\n",
    source=f"{VALIDATOR} checkNodeSortingPolicy"))

validator_rule("YK129", "nodesort-weight-negative", ("nodesort-weight",), "a negative node sorting resource weight",
               RuleDoc(
                   what="Resource weights are >= 0 (default 1.0).",
                   why="`negative resource weight for <name> is not allowed`.",
                   fix="Use a weight >= 0.",
                   source=f"{VALIDATOR} checkNodeSortingPolicy"))

validator_rule("YK130", "queue-maxapps-hierarchy", ("queue-maxapps",),
               "a child's maxapplications above its parent's, or missing under a parent that sets it", RuleDoc(
                   what="If a parent sets maxapplications, each direct child must set it too, to a value not above the "
                        "parent's (equal is fine). 0 / absent means unlimited.",
                   why="`parent maxApplications must be larger than child maxApplications` or `maxApplications is either "
                       "undefined or zero, which is not allowed when parent queue's maxApplications is defined`.",
                   fix="Set maxapplications on the child, at most the parent's.",
                   source=f"{VALIDATOR} checkQueueMaxApplications"))

validator_rule("YK131", "limit-maxresources-above-ancestor", ("limit-res-ancestor",),
               "a user/group limit's maxresources above the same (or the wildcard) limit of an ancestor", RuleDoc(
                   what="Going down the tree, a user's (group's) maxresources must fit the same user's limit above, or "
                        "the `*` limit above when the user has none.",
                   why="`user <u> max resource <R> of queue <q> is greater than immediate or ancestor parent maximum "
                       "resource <L>` (or `... wildcard maximum resource ...`).",
                   fix="Lower the deeper limit or raise the ancestor's.",
                   source=f"{VALIDATOR} checkLimitResource"))

validator_rule("YK132", "limit-maxapps-above-ancestor", ("limit-apps-ancestor",),
               "a user/group limit's maxapplications above the same (or the wildcard) limit of an ancestor", RuleDoc(
                   what="Going down the tree, a user's (group's) maxapplications must not exceed the same user's limit "
                        "above (or the `*` one), and may not be 0 (unlimited) under a limited ancestor — even when the "
                        "deeper entry only sets maxresources.",
                   why="`user <u> max applications <n> of queue <q> is greater than immediate or ancestor parent max "
                       "applications <a>` (or `... wildcard max applications ...`).",
                   fix="Set maxapplications on the deeper limit, at most the ancestor's.",
                   source=f"{VALIDATOR} checkLimitMaxApplications"))
