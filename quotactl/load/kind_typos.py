"""Misspelt Kueue apiVersions and kinds: ``kind: Clusterqueue``, ``apiVersion: kueue.k8s.io/v1beta1``.

kubectl would refuse such an object ("no matches for kind"), so skipping it with a note would let a
typo pass CI. The loader reports it as an error (IN013) with the nearest spelling Kueue serves.

"Near" is the optimal-string-alignment form of the Damerau-Levenshtein distance (insertions,
deletions, substitutions and swaps of two neighbouring characters each count one edit), compared
case-insensitively. An API group is near Kueue's within two edits (``kueu.x-k8s.io`` is one,
``kueue.k8s.io`` and ``kueue.x-k8s.com`` are two), or when its first label is ``kueue`` (``kueue.io``).
Kubernetes' own groups and the job frameworks' (``batch``, ``apps``, ``jobset.x-k8s.io``,
``visibility.kueue.x-k8s.io``) are many edits away, so they never match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from quotactl.model.kueue_versions import API_VERSIONS

MAX_GROUP_EDITS = 2
MAX_KIND_EDITS = 2


@dataclass(frozen=True)
class Typo:
    field: str  # "apiVersion" or "kind": where the diagnostic points
    message: str
    suggestion: str | None  # "kueue.x-k8s.io/v1beta2 ClusterQueue", or None when no kind is near


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (restricted Damerau-Levenshtein) between ``a`` and ``b``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def nearest(word: str, candidates, max_edits: int) -> str | None:
    """The candidate nearest ``word`` (case-insensitively) within ``max_edits``; ties go to the
    alphabetically first, so the answer is deterministic. A candidate whose length differs by more
    than ``max_edits`` is never within it, and is not measured (a 1,000,000-character kind would
    take the quadratic distance minutes)."""
    near = [c for c in candidates if abs(len(c) - len(word)) <= max_edits]
    scored = sorted((edit_distance(word.lower(), c.lower()), c) for c in near)
    return scored[0][1] if scored and scored[0][0] <= max_edits else None


def served_versions(group: str) -> list[str]:
    """The versions any known Kueue release serves in ``group``, oldest first."""
    return sorted(v for g, v in API_VERSIONS if g == group)


def near_group(group: str, groups) -> str | None:
    """The Kueue API group ``group`` misspells, or None (also None for a Kueue group itself)."""
    if group in groups:
        return None
    lowered = group.lower()
    for real in groups:  # a first label spelt right: kueue.io, config.kueue.k8s.io
        if lowered.startswith(real.split(".x-k8s.io")[0] + "."):
            return real
    return nearest(group, groups, MAX_GROUP_EDITS)


def kueue_typo(api_version: str, kind: str, kinds: Mapping[str, frozenset[str]]) -> Typo | None:
    """What is misspelt in an object quotactl did not recognise, when it is meant for Kueue.

    ``kinds``: the kinds of each Kueue API group. None when the object is not Kueue's (its group
    is not near one of Kueue's) or nothing is misspelt."""
    group, _, version = api_version.rpartition("/")
    if not group:
        return None
    real_group = group if group in kinds else near_group(group, sorted(kinds))
    if real_group is None:
        return None
    known = kinds[real_group]
    real_kind = kind if kind in known else nearest(kind, sorted(known), MAX_KIND_EDITS)
    versions = served_versions(real_group)
    real_version = version if version in versions else versions[-1]
    real_api_version = f"{real_group}/{real_version}"
    if (real_api_version, real_kind) == (api_version, kind):
        return None
    if real_group != group:
        meant = f"{real_api_version} {real_kind}" if real_kind else real_api_version
        return Typo("apiVersion", f"apiVersion {api_version} is not a Kueue API group; did you mean {meant}?", meant)
    if real_kind is None:
        return Typo("kind", f"unknown Kueue kind {kind} ({api_version}): not a kind of {group}", None)
    meant = real_kind if real_api_version == api_version else f"{real_api_version} {real_kind}"
    return Typo("kind", f"unknown Kueue kind {kind} ({api_version}); did you mean {meant}?", meant)
