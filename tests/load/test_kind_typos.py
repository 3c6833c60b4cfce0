"""Misspelt Kueue apiVersions and kinds (IN013): what is caught, what is suggested, and the groups
that must never be taken for a misspelt Kueue group."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotactl.load.kind_typos import edit_distance, kueue_typo, near_group
from quotactl.load.objects import KUEUE_API_KINDS, KUEUE_CONFIG_GROUP, KUEUE_GROUP, load


@pytest.mark.parametrize("a,b,distance", [
    ("kueue", "kueue", 0), ("kueu", "kueue", 1), ("kueeu", "kueue", 1),  # a swap of neighbours is one edit
    ("kueue.k8s.io", "kueue.x-k8s.io", 2), ("kueue.x-k8s.com", "kueue.x-k8s.io", 2), ("", "abc", 3),
    ("batch", "kueue.x-k8s.io", 14),
])
def test_edit_distance(a, b, distance):
    assert edit_distance(a, b) == distance == edit_distance(b, a)


@given(st.text(alphabet="abcde.-", max_size=8), st.text(alphabet="abcde.-", max_size=8))
def test_edit_distance_is_a_bounded_metric(a, b):
    d = edit_distance(a, b)
    assert d == edit_distance(b, a)
    assert abs(len(a) - len(b)) <= d <= max(len(a), len(b))
    assert (d == 0) == (a == b)


@pytest.mark.parametrize("api_version,kind,field,suggestion", [
    ("kueue.x-k8s.io/v1beta2", "Clusterqueue", "kind", "ClusterQueue"),  # wrong case
    ("kueue.x-k8s.io/v1beta2", "clusterqueue", "kind", "ClusterQueue"),
    ("kueue.x-k8s.io/v1beta2", "LocalQeueu", "kind", "LocalQueue"),  # swapped letters
    ("kueue.x-k8s.io/v1beta2", "ResourceFlavour", "kind", "ResourceFlavor"),
    ("kueue.x-k8s.io/v1beta3", "Clusterqueue", "kind", "kueue.x-k8s.io/v1beta2 ClusterQueue"),  # unknown version
    ("kueue.k8s.io/v1beta1", "ClusterQueue", "apiVersion", "kueue.x-k8s.io/v1beta1 ClusterQueue"),
    ("kueue.x-k8s.com/v1beta2", "LocalQueue", "apiVersion", "kueue.x-k8s.io/v1beta2 LocalQueue"),
    ("kueu.x-k8s.io/v1beta2", "Cohort", "apiVersion", "kueue.x-k8s.io/v1beta2 Cohort"),
    ("Kueue.x-k8s.io/v1beta2", "Cohort", "apiVersion", "kueue.x-k8s.io/v1beta2 Cohort"),
    ("kueue.sigs.k8s.io/v1", "Workload", "apiVersion", "kueue.x-k8s.io/v1beta2 Workload"),  # first label kueue
    ("kueue.k8s.io/v1beta2", "Clusterqueue", "apiVersion", "kueue.x-k8s.io/v1beta2 ClusterQueue"),  # both
    ("config.kueue.x-k8s.io/v1beta2", "Configuraton", "kind", "Configuration"),
    ("config.kueue.k8s.io/v1beta1", "Configuration", "apiVersion", "config.kueue.x-k8s.io/v1beta1 Configuration"),
])
def test_typos_name_what_was_meant(api_version, kind, field, suggestion):
    typo = kueue_typo(api_version, kind, KUEUE_API_KINDS)
    assert typo is not None and typo.field == field and typo.suggestion == suggestion
    assert f"did you mean {suggestion}?" in typo.message


def test_an_unknown_kind_far_from_every_kueue_kind_is_still_an_error():
    typo = kueue_typo("kueue.x-k8s.io/v1beta2", "Deployment", KUEUE_API_KINDS)
    assert typo is not None and typo.suggestion is None and typo.field == "kind"
    assert typo.message == "unknown Kueue kind Deployment (kueue.x-k8s.io/v1beta2): not a kind of kueue.x-k8s.io"


# Groups of Kubernetes, of the job frameworks Kueue integrates and of Kueue's own other APIs:
# never a misspelt Kueue group.
OTHER_GROUPS = ["batch", "apps", "v1", "scheduling.k8s.io", "node.k8s.io", "jobset.x-k8s.io",
                "leaderworkerset.x-k8s.io", "cluster.x-k8s.io", "kubeflow.org", "trainer.kubeflow.org", "ray.io",
                "workload.codeflare.dev", "visibility.kueue.x-k8s.io", "kjobctl.x-k8s.io", "inference.x-k8s.io",
                "gateway.networking.k8s.io", "apiextensions.k8s.io", "policy", "autoscaling.x-k8s.io",
                "kustomize.config.k8s.io", "argoproj.io", "karpenter.sh", "queue.example.com"]


@pytest.mark.parametrize("group", OTHER_GROUPS)
def test_other_groups_never_match(group):
    assert near_group(group, sorted(KUEUE_API_KINDS)) is None
    assert kueue_typo(f"{group}/v1", "ClusterQueue", KUEUE_API_KINDS) is None


@pytest.mark.parametrize("api_version,kind", [
    (f"{KUEUE_GROUP}/v1beta2", "ClusterQueue"), (f"{KUEUE_CONFIG_GROUP}/v1beta1", "Configuration"), ("v1", "Pod"),
])
def test_right_spellings_are_not_typos(api_version, kind):
    assert kueue_typo(api_version, kind, KUEUE_API_KINDS) is None


def test_loader_reports_an_error_at_the_misspelt_field(tmp_path):
    f = tmp_path / "typo.yaml"
    f.write_text("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Clusterqueue\nmetadata: {name: team-a}\n---\n"
                 "apiVersion: kueue.k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: q, namespace: ml}\n---\n"
                 "apiVersion: batch/v1\nkind: Jobb\nmetadata: {name: j}\n")
    result = load([str(f)])
    assert result.objects == []
    got = [(d.code, d.severity.value, d.line, d.column, d.object, d.field, d.input_error) for d in result.diagnostics]
    assert got == [
        ("IN013", "error", 2, 7, "Clusterqueue/team-a", "kind", False),
        ("IN013", "error", 5, 13, "LocalQueue/ml/q", "apiVersion", False),
        ("IN003", "info", 9, 1, "Jobb/j", None, False),  # not a Kueue group: skipped, as before
    ]


def test_a_huge_kind_is_not_measured_against_every_kind():
    """Found by the fuzzer (a 1,000,000-character kind: 20 s of CPU in the edit distance): a word
    whose length is out of reach of the edit bound is never near, and costs nothing."""
    from quotactl.load.kind_typos import nearest

    assert nearest("C" * 1_000_000, ["ClusterQueue", "LocalQueue"], 2) is None
    assert nearest("ClusterQeue", ["ClusterQueue", "LocalQueue"], 2) == "ClusterQueue"
