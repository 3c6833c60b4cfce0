"""v1beta1 ``topologyAssignment`` {levels, domains[{values, count}]} -> v1beta2 {levels, slices[]}.

Kueue converts with pkg/util/tas V1Beta2From.  Its encoding is an implementation detail ("which may
change", KEP-2724); this is the single compact encoding (singleCompactTopologyAssignmentEncoding, what
Kueue writes with the TASAssignmentsEncodingByHostnamePrefix gate off), chunked at Kueue's
100,000 domains per slice: the same domains and pod counts, in order, as every other encoding."""

from __future__ import annotations

MAX_DOMAINS_PER_SLICE = 100_000


def v1beta2_topology_assignment(levels: list, domains: list) -> dict:
    """The v1beta2 object for ``levels`` and ``domains`` (each {values: [...], count: n})."""
    slices = [_compact_slice(len(levels), domains[i:i + MAX_DOMAINS_PER_SLICE])
              for i in range(0, len(domains), MAX_DOMAINS_PER_SLICE)]
    return {"levels": levels, "slices": slices}


def _compact_slice(n_levels: int, domains: list) -> dict:
    """One slice: per level a universal value or prefix/suffix/roots; pod counts universal or individual."""
    values_per_level = [_level_values([str(d["values"][i]) for d in domains]) for i in range(n_levels)]
    counts = [d.get("count", 0) for d in domains]
    pod_counts = {"universal": counts[0]} if len(set(counts)) == 1 else {"individual": counts}
    return {"domainCount": len(domains), "valuesPerLevel": values_per_level, "podCounts": pod_counts}


def _level_values(values: list[str]) -> dict:
    prefix = _common_prefix(values)
    longest = max(len(v) for v in values)
    if len(prefix) == longest:  # every value is the same
        return {"universal": prefix}
    suffix = _common_prefix([v[::-1] for v in values])[::-1]
    shortest = min(len(v) for v in values)
    if len(prefix) + len(suffix) > shortest:  # prefix and suffix must not overlap ("ababa", "aba")
        prefix = prefix[:shortest - len(suffix)]
    individual: dict = {}
    if prefix:
        individual["prefix"] = prefix
    if suffix:
        individual["suffix"] = suffix
    individual["roots"] = [v[len(prefix):len(v) - len(suffix)] for v in values]
    return {"individual": individual}


def _common_prefix(values: list[str]) -> str:
    first = values[0]
    n = min(len(v) for v in values)
    for i in range(n):
        if any(v[i] != first[i] for v in values):
            return first[:i]
    return first[:n]
