"""--no-cross-refs: the input is one part of a configuration, so rules about objects that live in
the other parts (the rest of a cohort, a TrainJob's training runtime) stay quiet."""

from __future__ import annotations

from tests.lint.util import by_code, lint_text

# One member of cohort team-ab, as Kueue's "Administer cluster quotas" page shows it (the member that
# lends is in the next snippet).
ONE_COHORT_MEMBER = """
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: team-a-cq}
spec:
  namespaceSelector: {}
  cohortName: team-ab
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default-flavor
      resources:
      - {name: cpu, nominalQuota: 9, borrowingLimit: 6, lendingLimit: 3}
"""

TRAINJOB_WITHOUT_RUNTIME = """
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  runtimeRef: {name: torch-distributed}
"""


def test_cohort_rules_report_a_lone_member_by_default(tmp_path):
    diags = lint_text(tmp_path, ONE_COHORT_MEMBER)
    assert len(by_code(diags, "KQ506")) == 1 and len(by_code(diags, "KQ507")) == 1


def test_cohort_rules_trust_the_members_elsewhere_with_no_cross_refs(tmp_path):
    diags = lint_text(tmp_path, ONE_COHORT_MEMBER, cross_refs=False)
    assert by_code(diags, "KQ506") == [] and by_code(diags, "KQ507") == []


def test_trainjob_whose_runtime_is_elsewhere_is_not_an_internal_error(tmp_path):
    for cross_refs in (None, False, True):
        diags = lint_text(tmp_path, TRAINJOB_WITHOUT_RUNTIME, cross_refs=cross_refs)
        assert [d.code for d in diags if d.severity == "error"] == []
