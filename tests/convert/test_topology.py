"""The v1beta2 topology assignment encoding (kueue pkg/util/tas fillSingleCompactSliceValues)."""

from quotactl.convert.topology import v1beta2_topology_assignment


def _decode(assignment: dict) -> list[tuple[list[str], int]]:
    """Back to (values per level, pod count) per domain: what any v1beta2 encoding must preserve."""
    out = []
    for s in assignment["slices"]:
        n = s["domainCount"]
        columns = []
        for level in s["valuesPerLevel"]:
            if "universal" in level:
                columns.append([level["universal"]] * n)
            else:
                ind = level["individual"]
                columns.append([ind.get("prefix", "") + r + ind.get("suffix", "") for r in ind["roots"]])
        counts = s["podCounts"].get("individual") or [s["podCounts"]["universal"]] * n
        out.extend(([col[i] for col in columns], counts[i]) for i in range(n))
    return out


def test_prefix_and_suffix_do_not_overlap():
    # The motivating example of Kueue's fillSingleCompactSliceValues: {"ababa", "aba"}.
    domains = [{"values": ["ababa"], "count": 1}, {"values": ["aba"], "count": 1}]
    got = v1beta2_topology_assignment(["h"], domains)
    # Common prefix and suffix are both "aba"; together longer than "aba", so the prefix gives way.
    assert got["slices"][0]["valuesPerLevel"] == [{"individual": {"suffix": "aba", "roots": ["ab", ""]}}]
    assert got["slices"][0]["podCounts"] == {"universal": 1}


def test_hostnames_round_trip():
    domains = [{"values": ["rack-1", f"node-{i}.zone-a"], "count": i % 3 + 1} for i in range(12)]
    got = v1beta2_topology_assignment(["rack", "kubernetes.io/hostname"], domains)
    assert _decode(got) == [(d["values"], d["count"]) for d in domains]
    level = got["slices"][0]["valuesPerLevel"][1]["individual"]
    assert level["prefix"] == "node-" and level["suffix"] == ".zone-a"


def test_no_domains_no_slices():
    assert v1beta2_topology_assignment(["h"], []) == {"levels": ["h"], "slices": []}
