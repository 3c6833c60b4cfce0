"""Kueue manager Configuration rules (kueue ``apis/config/v1beta2/configuration_types.go``).

Kueue validates its Configuration at start-up (pkg/config/validation.go); any error stops the
manager, so every finding here is an error.  Paths are relative to the Configuration root."""

from __future__ import annotations

from quotactl.lint.k8s_checks import parse_duration, quote, quoted_list, scalar_text
from quotactl.lint.rule import Finding, RuleDoc, rule
from quotactl.lint.rules.kueue.common import raw
from quotactl.model.coerce import as_dict, as_int, as_list

CFG = ("Configuration",)
STRATEGY_SETS = (
    ("LessThanOrEqualToFinalShare",),
    ("LessThanInitialShare",),
    ("LessThanOrEqualToFinalShare", "LessThanInitialShare"),
)
NEGATIVE = "must be greater than or equal to 0"


def _negative_duration(section: dict, base: tuple, name: str):
    """The Invalid finding for a duration field that parses to less than zero."""
    value = section.get(name)
    seconds = parse_duration(value)
    if seconds is not None and seconds < 0:
        yield Finding(base + (name,), f"{NEGATIVE} (got {scalar_text(value)})")


@rule(
    code="KQ801", name="invalid-fair-sharing-strategies", severity="error", layer="config", kinds=CFG,
    summary="fairSharing.preemptionStrategies missing or not an allowed list",
    doc=RuleDoc(
        what="fairSharing.preemptionStrategies must be exactly one of [LessThanOrEqualToFinalShare], "
             "[LessThanInitialShare] or [LessThanOrEqualToFinalShare, LessThanInitialShare] (in that order). "
             "In config v1beta2 it is required whenever fairSharing is present (v1beta1 defaults it to the "
             "two-element list when fairSharing.enable is true).",
        why="Kueue refuses to start (Required / NotSupported at fairSharing.preemptionStrategies).",
        fix="Use one of the three lists; [LessThanOrEqualToFinalShare, LessThanInitialShare] is the usual choice.",
        bad="apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing: {}\n",
        good="apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfairSharing:\n"
             "  preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]\n",
        source="kueue pkg/config/validation.go validateFairSharing",
    ),
)
def check_fair_sharing(cfg, ctx):
    fs = raw(cfg, ("fairSharing",))
    if not isinstance(fs, dict):
        return
    path = ("fairSharing", "preemptionStrategies")
    strategies = fs.get("preemptionStrategies")
    if not isinstance(strategies, list) or not strategies:
        if cfg.version != "v1beta1" and (strategies is None or strategies == []):
            yield Finding(path, "must be specified: fairSharing is present, so preemptionStrategies is required "
                                "in config v1beta2", type="Required",
                          hint="preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]")
        return
    got = tuple(scalar_text(s) for s in strategies)
    if got not in STRATEGY_SETS:
        supported = [",".join(s) for s in STRATEGY_SETS]
        yield Finding(
            path,
            f"Unsupported value: [{', '.join(got)}]: supported values: {quoted_list(supported)}",
            type="NotSupported",
            hint="Use one of the three allowed lists, in that order.",
        )


@rule(
    code="KQ802", name="invalid-admission-fair-sharing", severity="error", layer="config", kinds=CFG,
    summary="admissionFairSharing durations or weights out of bounds",
    doc=RuleDoc(
        what="admissionFairSharing.usageHalfLifeTime must be >= 0, usageSamplingInterval (default 5m) > 0, and "
             "every resourceWeights value >= 0.",
        why="Kueue refuses to start (Invalid at the field).",
        fix="Use non-negative durations (a positive sampling interval) and non-negative weights.",
        bad="admissionFairSharing:\n  usageHalfLifeTime: -1h\n  usageSamplingInterval: 0s\n",
        good="admissionFairSharing:\n  usageHalfLifeTime: 168h\n  usageSamplingInterval: 5m\n",
        source="kueue pkg/config/validation.go validateAdmissionFairSharing",
    ),
)
def check_admission_fair_sharing(cfg, ctx):
    afs = raw(cfg, ("admissionFairSharing",))
    if not isinstance(afs, dict):
        return
    base = ("admissionFairSharing",)
    yield from _negative_duration(afs, base, "usageHalfLifeTime")
    if afs.get("usageSamplingInterval") is not None:
        interval = parse_duration(afs.get("usageSamplingInterval"))
        if interval is not None and interval <= 0:
            yield Finding(base + ("usageSamplingInterval",),
                          f"must be greater than 0 (got {scalar_text(afs.get('usageSamplingInterval'))})",
                          hint="Omit it for the default 5m.")
    for res, w in as_dict(afs.get("resourceWeights")).items():
        if isinstance(w, (int, float)) and not isinstance(w, bool) and w < 0:
            yield Finding(base + ("resourceWeights", str(res)),
                          f"{NEGATIVE} (weight of {res} is {scalar_text(w)})")


def _wait_for_pods_ready_enabled(cfg, ctx) -> bool:
    wfpr = raw(cfg, ("waitForPodsReady",))
    if cfg.version == "v1beta1":
        return isinstance(wfpr, dict) and wfpr.get("enable") is True
    return not ctx.gates.enabled("DisableWaitForPodsReady")


@rule(
    code="KQ803", name="invalid-wait-for-pods-ready", severity="error", layer="config", kinds=CFG,
    summary="waitForPodsReady timeouts or requeuing strategy out of bounds",
    doc=RuleDoc(
        what="When waitForPodsReady is enabled (v1beta1: enable: true; v1beta2: always, unless gate "
             "DisableWaitForPodsReady): timeout must be > 0 (v1beta2: 0 counts as unset), recoveryTimeout >= 0, "
             "backoffLimitCount / backoffBaseSeconds / backoffMaxSeconds >= 0. (Duration syntax and the "
             "requeuingStrategy.timestamp enum are schema checks.)",
        why="Kueue refuses to start (Required / Invalid at the field).",
        fix="Use positive durations such as 5m and non-negative counts.",
        bad="waitForPodsReady:\n  timeout: -5m\n  requeuingStrategy:\n    backoffLimitCount: -1\n",
        good="waitForPodsReady:\n  timeout: 5m\n  requeuingStrategy:\n    timestamp: Eviction\n",
        source="kueue pkg/config/validation.go validateWaitForPodsReady",
    ),
)
def check_wait_for_pods_ready(cfg, ctx):
    wfpr = raw(cfg, ("waitForPodsReady",))
    if not isinstance(wfpr, dict) or not _wait_for_pods_ready_enabled(cfg, ctx):
        return
    base = ("waitForPodsReady",)
    yield from _negative_duration(wfpr, base, "timeout")
    if parse_duration(wfpr.get("timeout")) == 0 and cfg.version != "v1beta1":
        yield Finding(base + ("timeout",), "must be specified (a zero timeout is not allowed)",
                      type="Required", hint="Use a positive duration such as 5m, or omit it for 30m.")
    yield from _negative_duration(wfpr, base, "recoveryTimeout")
    rs = wfpr.get("requeuingStrategy")
    if not isinstance(rs, dict):
        return
    rbase = base + ("requeuingStrategy",)
    for name in ("backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"):
        v = as_int(rs.get(name))
        if v is not None and v < 0:
            yield Finding(rbase + (name,), f"{NEGATIVE} (got {v})")


@rule(
    code="KQ804", name="invalid-resources-config", severity="error", layer="config", kinds=CFG,
    summary="Duplicate resource transformation, or IgnoreUndeclared with excludeResourcePrefixes",
    doc=RuleDoc(
        what="Each resources.transformations[i].input may be transformed only once, and "
             "resources.quotaCheckStrategy IgnoreUndeclared (gate QuotaCheckStrategy, beta, on) cannot be combined "
             "with excludeResourcePrefixes. (Strategy enums are schema checks.)",
        why="Kueue refuses to start (Duplicate at ...transformations[i].input / Invalid at "
            "resources.quotaCheckStrategy).",
        fix="Merge duplicate transformations into one per input, and choose either IgnoreUndeclared or "
            "excludeResourcePrefixes.",
        bad="resources:\n  quotaCheckStrategy: IgnoreUndeclared\n  excludeResourcePrefixes: [example.com/]\n",
        good="resources:\n  quotaCheckStrategy: IgnoreUndeclared\n",
        source="kueue pkg/config/validation.go validateResourceTransformations, validateQuotaCheckStrategy",
    ),
)
def check_resources(cfg, ctx):
    res = raw(cfg, ("resources",))
    if not isinstance(res, dict):
        return
    seen: dict[str, int] = {}
    for i, t in enumerate(as_list(res.get("transformations"))):
        t = as_dict(t)
        path = ("resources", "transformations", i)
        inp = t.get("input")
        if isinstance(inp, str):
            if inp in seen:
                yield Finding(path + ("input",),
                              f"Duplicate value: {quote(inp)} (already transformed by transformations[{seen[inp]}])",
                              type="Duplicate", hint="Merge the outputs into one transformation per input.")
            else:
                seen[inp] = i
    qcs = res.get("quotaCheckStrategy")
    if qcs is None or not ctx.gates.enabled("QuotaCheckStrategy"):
        return
    if qcs == "IgnoreUndeclared" and as_list(res.get("excludeResourcePrefixes")):
        yield Finding(("resources", "quotaCheckStrategy"),
                      "IgnoreUndeclared cannot be used together with resources.excludeResourcePrefixes "
                      f"({', '.join(scalar_text(p) for p in as_list(res.get('excludeResourcePrefixes')))})",
                      hint="IgnoreUndeclared already skips every resource the ClusterQueue does not cover; drop "
                           "excludeResourcePrefixes, or use BlockUndeclared.")
