"""The project's JSON Schemas for Kueue inputs (schemas/kueue/**, schemas/kubernetes/**).

1. Every schema file is a valid 2020-12 schema with the expected $id, and every $ref resolves.
2. Real Kueue objects (cluster dumps and valid lint inputs under tests/acceptance/cases) pass the schema layer.
3. Lint cases whose expected error is a CRD-schema (422) error of a schema-expressible kind are caught
   by the schema layer at the expected field.
4. Targeted positive / negative cases per kind and version.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from quotactl.lint.schema import (
    SCHEMA_BASE_URI,
    SERVED,
    _registry,
    schema_path,
    schemas_root,
    validate_object,
)
from quotactl.load.objects import load
from tests.acceptance.accept import field_matches
from tests.helpers import CASES

SCHEMAS = schemas_root()
# The input schemas (schemas/output/ holds the schemas of quotactl's own JSON output).
SCHEMA_FILES = sorted(p for d in ("kueue", "kubernetes") for p in (Path(str(SCHEMAS)) / d).rglob("*.json"))
SCHEMA_CODES = {f"KQ{n:03d}" for n in range(1, 11)}


def schema_diagnostics(paths):
    loaded = load([str(p) for p in paths])
    out = []
    for obj in loaded.objects:
        out.extend(d for d in validate_object(obj) if d.code in SCHEMA_CODES)
    return out


def check(tmp_path, text):
    f = tmp_path / "input.yaml"
    f.write_text(textwrap.dedent(text))
    return schema_diagnostics([f])


def _rel(p: Path) -> str:
    return p.relative_to(SCHEMAS).as_posix()


# --------------------------------------------------------------------- 1. schema files ----

@pytest.mark.parametrize("path", SCHEMA_FILES, ids=_rel)
def test_schema_file_is_valid_2020_12(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == SCHEMA_BASE_URI + _rel(path)


def _refs(node, where=()):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                yield where, v
            else:
                yield from _refs(v, where + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _refs(v, where + (i,))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=_rel)
def test_every_ref_resolves(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    resolver = _registry().resolver(base_uri=schema["$id"])
    for where, ref in _refs(schema):
        assert not ref.startswith(("http:", "https:")), f"{where}: use a relative $ref, not {ref}"
        resolved = resolver.lookup(ref).contents
        assert isinstance(resolved, dict) and resolved, f"{'/'.join(map(str, where))}: {ref} resolves to nothing"


SERVED_SCHEMAS = sorted(
    (group, version, kind) for (group, kind), versions in SERVED.items() for version in versions
)


@pytest.mark.parametrize("group,version,kind", SERVED_SCHEMAS, ids=lambda v: v or "core")
def test_every_served_version_has_a_schema(group, version, kind):
    path = Path(str(SCHEMAS)) / schema_path(group, version, kind)
    assert path.is_file(), f"missing schema {path}"
    schema = json.loads(path.read_text(encoding="utf-8"))
    api_version = f"{group}/{version}" if group else version
    assert schema["properties"]["apiVersion"] == {"const": api_version}
    assert schema["properties"]["kind"] == {"const": kind}
    assert schema.get("title") and (schema.get("description") or kind == "Namespace")


# ----------------------------------------------------------- 2. real objects pass --------

def _valid_inputs():
    files = sorted(CASES.glob("kueue-*/*/state.yaml"))
    for case in sorted(CASES.glob("kueue-lint/*/case.json")):
        if json.loads(case.read_text())["expect"].get("valid"):
            files.append(case.parent / "input.yaml")
    return files


VALID_INPUTS = _valid_inputs()


def test_valid_input_selection_is_not_empty():
    assert len(VALID_INPUTS) >= 200


@pytest.mark.parametrize("path", VALID_INPUTS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_real_objects_have_no_schema_errors(path):
    diags = schema_diagnostics([path])
    assert not diags, [(d.code, d.object, d.field, d.message) for d in diags]


# -------------------------------------------- 3. schema-layer errors of the lint cases ----

_SCHEMA_ERROR_TYPES = {"NotSupported", "Required", "TooMany", "TooLong", "Duplicate"}


def _schema_error_cases():
    """Cases whose source asserts a 422 (CRD) rejection of a kind a schema can express."""
    out = []
    for case in sorted(CASES.glob("kueue-lint/*/case.json")):
        spec = json.loads(case.read_text())
        if spec["expect"].get("valid") or "422" not in spec.get("notes", ""):
            continue
        for err in spec["expect"]["errors"]:
            if err["type"] in _SCHEMA_ERROR_TYPES or "should match" in err.get("contains", ""):
                out.append(pytest.param(case.parent, err["field"], id=f"{case.parent.name}:{err['field']}"))
    return out


SCHEMA_ERROR_CASES = _schema_error_cases()


@pytest.mark.parametrize("case,field", SCHEMA_ERROR_CASES)
def test_crd_schema_errors_of_lint_cases_are_reported(case, field):
    diags = schema_diagnostics([case / "input.yaml"])
    assert any(field_matches(field, d.field) for d in diags), [(d.code, d.field) for d in diags]


def test_schema_error_case_selection_is_not_empty():
    assert len(SCHEMA_ERROR_CASES) >= 5


# ------------------------------------------------------------- 4. targeted cases ----------

RF = """\
apiVersion: kueue.x-k8s.io/{v}
kind: ResourceFlavor
metadata: {{name: on-demand}}
spec:
{spec}
"""

CQ = """\
apiVersion: kueue.x-k8s.io/{v}
kind: ClusterQueue
metadata: {{name: team-a}}
spec:
  namespaceSelector: {{}}
{spec}
"""

QUOTA = """\
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: on-demand
      resources:
      - name: cpu
        nominalQuota: {q}
"""

COHORT = """\
apiVersion: kueue.x-k8s.io/{v}
kind: Cohort
metadata: {{name: org}}
spec:
{spec}
"""

LQ = """\
apiVersion: kueue.x-k8s.io/{v}
kind: LocalQueue
metadata: {{name: team-a-queue, namespace: {ns}}}
spec:
{spec}
"""

WL = """\
apiVersion: kueue.x-k8s.io/{v}
kind: Workload
metadata: {{name: job-1, namespace: team-a}}
spec:
  queueName: team-a-queue
{spec}
"""

POD = "template: {spec: {containers: [{name: c, resources: {requests: {cpu: '1'}}}]}}"

WPC = """\
apiVersion: kueue.x-k8s.io/{v}
kind: WorkloadPriorityClass
metadata: {{name: high}}
{body}
"""

PC = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: high}}
{body}
"""

CFG = """\
apiVersion: config.kueue.x-k8s.io/{v}
kind: Configuration
{body}
"""


def ind(text: str, n: int = 2) -> str:
    return textwrap.indent(textwrap.dedent(text).strip("\n"), " " * n)


VALID = {
    # ResourceFlavor
    "rf-empty-spec": RF.format(v="v1beta2", spec="  {}"),
    "rf-no-spec": "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default}\n",
    "rf-full-v1beta1": RF.format(v="v1beta1", spec=ind("""
        nodeLabels: {cloud.example.com/capacity: on-demand, zone: a}
        nodeTaints: [{key: spot, value: "true", effect: NoSchedule}]
        tolerations: [{key: spot, operator: Equal, value: "true", effect: NoSchedule}]
        topologyName: default-topology
    """)),
    # ClusterQueue
    "cq-v1beta2-appendix": CQ.format(v="v1beta2", spec=ind("""
        cohortName: org
        queueingStrategy: BestEffortFIFO
        stopPolicy: None
        fairSharing: {weight: 2n}
        flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, preference: BorrowingOverPreemption}
        preemption:
          reclaimWithinCohort: Any
          withinClusterQueue: LowerOrNewerEqualPriority
          borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}
        admissionChecksStrategy:
          admissionChecks: [{name: prov, onFlavors: [on-demand]}]
        admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
        concurrentAdmissionPolicy:
          migration: {mode: TryPreferredFlavors, constraints: {lastAcceptableFlavorName: on-demand}}
        resourceGroups:
        - coveredResources: [cpu, memory]
          flavors:
          - name: on-demand
            resources:
            - {name: cpu, nominalQuota: 8, borrowingLimit: 4, lendingLimit: 2}
            - {name: memory, nominalQuota: 32Gi}
    """)),
    "cq-v1beta1-cohort-and-deprecated-enums": CQ.format(v="v1beta1", spec=ind("""
        cohort: org
        flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
        admissionChecks: [prov]
        admissionScope: {admissionMode: AnythingGoesInV1beta1}
    """) + "\n" + QUOTA.format(q=1)),
    # quantities: integers, quoted decimals, suffixes, integral floats and exponents are fine
    "quantity-string-decimal": CQ.format(v="v1beta2", spec=QUOTA.format(q='"1.5"')),
    "quantity-milli": CQ.format(v="v1beta2", spec=QUOTA.format(q="1500m")),
    "quantity-integral-float": CQ.format(v="v1beta2", spec=QUOTA.format(q="2.0")),
    "quantity-exponent": CQ.format(v="v1beta2", spec=QUOTA.format(q="1e3")),
    "quantity-binary-si": CQ.format(v="v1beta2", spec=QUOTA.format(q="1.5Gi")),
    # Cohort
    "cohort-v1beta2": COHORT.format(v="v1beta2", spec=ind("parentName: root\nfairSharing: {weight: 0}")),
    "cohort-v1beta1": COHORT.format(v="v1beta1", spec=ind("parentName: root") + "\n" + QUOTA.format(q=10)),
    "cohort-v1alpha1-parent": COHORT.format(v="v1alpha1", spec=ind("parent: root") + "\n" + QUOTA.format(q=10)),
    # LocalQueue
    "lq-v1beta2": LQ.format(v="v1beta2", ns="team-a", spec=ind("clusterQueue: team-a\nstopPolicy: Hold\nfairSharing: {weight: 3}")),
    "lq-v1beta1-status": LQ.format(v="v1beta1", ns="team-a", spec=ind("clusterQueue: team-a")) + textwrap.dedent("""\
        status:
          pendingWorkloads: 1
          flavorUsage: [{name: on-demand, resources: [{name: cpu, total: "2"}]}]
          someFutureField: {x: 1}
    """),
    # WorkloadPriorityClass / PriorityClass
    "wpc-v1beta2": WPC.format(v="v1beta2", body="value: -2147483648\ndescription: lowest"),
    "wpc-v1beta1-long-description": WPC.format(v="v1beta1", body=f"value: 1\ndescription: {'x' * 3000}"),
    "priorityclass": PC.format(body="value: 1000\nglobalDefault: true\npreemptionPolicy: Never\ndescription: high"),
    # Workload
    "wl-v1beta2-admitted": WL.format(v="v1beta2", spec=ind(f"""
        priorityClassRef: {{group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}}
        priority: 1000
        podSets:
        - name: main
          count: 2
          minCount: 1
          {POD}
        - name: workers
          count: 0
          template:
            metadata: {{labels: {{app: x}}, creationTimestamp: null}}
            spec:
              containers: [{{name: c, resources: {{limits: {{nvidia.com/gpu: 1}}}}, securityContext: {{}}}}]
              nodeSelector: {{zone: a}}
              tolerations: [{{operator: Exists}}]
              affinity: {{nodeAffinity: {{requiredDuringSchedulingIgnoredDuringExecution: {{nodeSelectorTerms: [{{matchExpressions: [{{key: zone, operator: In, values: [a]}}]}}]}}}}}}
    """)) + textwrap.dedent("""\
        status:
          admission:
            clusterQueue: team-a
            podSetAssignments:
            - {name: main, count: 2, flavors: {cpu: on-demand}, resourceUsage: {cpu: "2"}}
          conditions:
          - {type: QuotaReserved, status: "True", reason: QuotaReserved, message: ok, lastTransitionTime: "2026-01-01T00:00:05Z"}
    """),
    "wl-v1beta1-priority-class-name-and-default-count": WL.format(v="v1beta1", spec=ind(f"""
        priorityClassName: high
        priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
        priority: 1000
        podSets:
        - {POD}
    """)),
    "wl-v1beta2-podsets-optional": WL.format(v="v1beta2", spec=""),
    # Configuration
    "config-v1beta1": CFG.format(v="v1beta1", body=ind("""
        fairSharing: {enable: true, preemptionStrategies: [LessThanOrEqualToFinalShare, LessThanInitialShare]}
        waitForPodsReady: {enable: true, timeout: 5m, requeuingStrategy: {timestamp: Creation, backoffLimitCount: 5}}
        integrations: {frameworks: [batch/job], labelKeysToCopy: [team]}
    """, 0)),
    "config-v1beta2": CFG.format(v="v1beta2", body=ind("""
        fairSharing: {preemptionStrategies: [LessThanInitialShare]}
        admissionFairSharing: {usageHalfLifeTime: 168h, usageSamplingInterval: 5m, resourceWeights: {cpu: 1.5}}
        waitForPodsReady: {timeout: 1h30m, blockAdmission: true, recoveryTimeout: 0s}
        resources:
          excludeResourcePrefixes: [example.com/]
          transformations: [{input: nvidia.com/mig, strategy: Replace, outputs: {example.com/accel: 0.5}}]
        featureGates: {TopologyAwareScheduling: true, PartialAdmission: false}
        manageJobsWithoutQueueName: false
    """, 0)),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_object(tmp_path, name):
    diags = check(tmp_path, VALID[name])
    assert not diags, [(d.code, d.field, d.message) for d in diags]


# (yaml, code, field, message fragment or None)
INVALID = {
    # unknown fields, with the closest known name suggested
    "unknown-field-nominalQuotas": (
        CQ.format(v="v1beta2", spec=QUOTA.format(q=1).replace("nominalQuota", "nominalQuotas")),
        "KQ007", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuotas", "did you mean 'nominalQuota'"),
    "v1beta2-cq-cohort": (
        CQ.format(v="v1beta2", spec="  cohort: org"), "KQ007", "spec.cohort", "did you mean 'cohortName'"),
    "v1beta1-cq-cohortName": (
        CQ.format(v="v1beta1", spec="  cohortName: org"), "KQ007", "spec.cohortName", "did you mean 'cohort'"),
    "v1beta2-cohort-parent": (
        COHORT.format(v="v1beta2", spec="  parent: root"), "KQ007", "spec.parent", "did you mean 'parentName'"),
    "v1alpha1-cohort-parentName": (
        COHORT.format(v="v1alpha1", spec="  parentName: root"), "KQ007", "spec.parentName", "did you mean 'parent'"),
    "top-level-typo": (
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\nspecs: {}\n",
        "KQ007", "specs", "did you mean 'spec'"),
    "rf-has-no-status": (
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\nstatus: {}\n",
        "KQ007", "status", None),
    "v1beta2-config-wait-enable": (
        CFG.format(v="v1beta2", body="waitForPodsReady: {enable: true}"), "KQ007", "waitForPodsReady.enable", None),
    "config-integrations-unknown": (  # Kueue decodes the whole file strictly, every section included
        CFG.format(v="v1beta1", body="integrations: {anything: goes}"), "KQ007", "integrations.anything", None),
    "config-visibility-server-v1beta1": (  # a v1beta2 field
        CFG.format(v="v1beta1", body="visibilityServer: {bindPort: 8082}"), "KQ007", "visibilityServer", None),
    "v1beta2-cq-admission-checks-list": (
        CQ.format(v="v1beta2", spec="  admissionChecks: [prov]"), "KQ007", "spec.admissionChecks", None),
    # enums (typos, case, explicit empty strings, version-specific values)
    "enum-typo": (
        CQ.format(v="v1beta2", spec="  queueingStrategy: StrictFIFOO"),
        "KQ002", "spec.queueingStrategy", 'did you mean "StrictFIFO"'),
    "enum-empty-string": (CQ.format(v="v1beta2", spec='  queueingStrategy: ""'), "KQ002", "spec.queueingStrategy", None),
    "enum-within-cluster-queue": (
        CQ.format(v="v1beta2", spec="  preemption: {withinClusterQueue: Any}"),
        "KQ002", "spec.preemption.withinClusterQueue", None),
    "enum-borrow-policy": (
        CQ.format(v="v1beta2", spec="  preemption: {borrowWithinCohort: {policy: Any}}"),
        "KQ002", "spec.preemption.borrowWithinCohort.policy", None),
    "enum-v1beta2-rejects-borrow": (
        CQ.format(v="v1beta2", spec="  flavorFungibility: {whenCanBorrow: Borrow}"),
        "KQ002", "spec.flavorFungibility.whenCanBorrow", None),
    "enum-v1beta2-rejects-preempt": (
        CQ.format(v="v1beta2", spec="  flavorFungibility: {whenCanPreempt: Preempt}"),
        "KQ002", "spec.flavorFungibility.whenCanPreempt", None),
    "enum-preference": (
        CQ.format(v="v1beta1", spec="  flavorFungibility: {preference: Borrowing}"),
        "KQ002", "spec.flavorFungibility.preference", None),
    "enum-stop-policy-case": (CQ.format(v="v1beta2", spec="  stopPolicy: hold"), "KQ002", "spec.stopPolicy", None),
    "enum-admission-mode-v1beta2": (
        CQ.format(v="v1beta2", spec="  admissionScope: {admissionMode: Usage}"),
        "KQ002", "spec.admissionScope.admissionMode", None),
    "enum-migration-mode": (
        CQ.format(v="v1beta2", spec="  concurrentAdmissionPolicy: {migration: {mode: Always}}"),
        "KQ002", "spec.concurrentAdmissionPolicy.migration.mode", None),
    "enum-lq-stop-policy": (
        LQ.format(v="v1beta1", ns="a", spec="  stopPolicy: Drain"), "KQ002", "spec.stopPolicy", None),
    "enum-priority-class-ref-group": (
        WL.format(v="v1beta2", spec="  priorityClassRef: {group: kueue.x-k8s.io/v1beta2, kind: WorkloadPriorityClass, name: a}"),
        "KQ002", "spec.priorityClassRef.group", None),
    "enum-priority-class-source": (
        WL.format(v="v1beta1", spec=ind(f"priorityClassSource: kueue\npodSets:\n- {POD}")),
        "KQ002", "spec.priorityClassSource", None),
    "enum-pc-preemption-policy": (PC.format(body="value: 1\npreemptionPolicy: Always"), "KQ002", "preemptionPolicy", None),
    "enum-config-strategy": (
        CFG.format(v="v1beta1", body="fairSharing: {enable: true, preemptionStrategies: [LessThanFinalShare]}"),
        "KQ002", "fairSharing.preemptionStrategies[0]", None),
    "enum-config-timestamp": (
        CFG.format(v="v1beta2", body="waitForPodsReady: {timeout: 5m, requeuingStrategy: {timestamp: Now}}"),
        "KQ002", "waitForPodsReady.requeuingStrategy.timestamp", None),
    "enum-config-transformation": (
        CFG.format(v="v1beta2", body="resources: {transformations: [{input: a, strategy: Drop}]}"),
        "KQ002", "resources.transformations[0].strategy", None),
    "enum-config-quota-check": (
        CFG.format(v="v1beta2", body="resources: {quotaCheckStrategy: Ignore}"), "KQ002", "resources.quotaCheckStrategy", None),
    # quantities
    "quantity-yaml-float": (
        CQ.format(v="v1beta2", spec=QUOTA.format(q="1.5")),
        "KQ008", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "YAML float"),
    "quantity-bad-suffix": (
        CQ.format(v="v1beta2", spec=QUOTA.format(q="1KB")),
        "KQ008", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", None),
    "quantity-weight": (CQ.format(v="v1beta2", spec="  fairSharing: {weight: 0.5}"), "KQ008", "spec.fairSharing.weight", None),
    "quantity-pod-request": (
        WL.format(v="v1beta2", spec=ind("podSets:\n- template: {spec: {containers: [{name: c, resources: {requests: {cpu: 0.5}}}]}}")),
        "KQ008", "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]", None),
    "quantity-boolean": (CQ.format(v="v1beta2", spec=QUOTA.format(q="true")),
                         "KQ008", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", None),
    # names
    "name-metadata": (RF.format(v="v1beta2", spec="  {}").replace("on-demand", "On_Demand"), "KQ009", "metadata.name", None),
    "name-missing": ("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {labels: {a: b}}\n",
                     "KQ001", "metadata.name", None),
    "name-namespace": (LQ.format(v="v1beta2", ns="Team.A", spec="  {}"), "KQ004", "metadata.namespace", None),
    "name-cohort-empty": (CQ.format(v="v1beta2", spec='  cohortName: ""'), "KQ004", "spec.cohortName", None),
    "name-flavor": (CQ.format(v="v1beta1", spec=QUOTA.format(q=1).replace("on-demand", "OnDemand")),
                    "KQ004", "spec.resourceGroups[0].flavors[0].name", None),
    "name-too-long": (LQ.format(v="v1beta2", ns="a", spec="  clusterQueue: " + "a" * 254), "KQ005", "spec.clusterQueue", None),
    "name-on-flavors": (
        CQ.format(v="v1beta2", spec="  admissionChecksStrategy: {admissionChecks: [{name: a, onFlavors: [Bad]}]}"),
        "KQ004", "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]", None),
    "name-v1alpha1-parent": (COHORT.format(v="v1alpha1", spec="  parent: '@prod'"), "KQ004", "spec.parent", None),
    "name-podset": (WL.format(v="v1beta2", spec=ind(f"podSets:\n- name: Main\n  {POD}")), "KQ004", "spec.podSets[0].name", None),
    "name-priority-class": (
        WL.format(v="v1beta1", spec=ind(f"priorityClassName: High\npodSets:\n- {POD}")), "KQ004", "spec.priorityClassName", None),
    # required fields
    "required-covered-resources": (
        CQ.format(v="v1beta2", spec="  resourceGroups: [{flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}]}]}]"),
        "KQ001", "spec.resourceGroups[0].coveredResources", None),
    "required-taint-effect": (RF.format(v="v1beta2", spec="  nodeTaints: [{key: a}]"), "KQ001", "spec.nodeTaints[0].effect", None),
    "required-admission-checks": (
        CQ.format(v="v1beta2", spec="  admissionChecksStrategy: {}"), "KQ001", "spec.admissionChecksStrategy.admissionChecks", None),
    "required-admission-mode": (CQ.format(v="v1beta2", spec="  admissionScope: {}"), "KQ001", "spec.admissionScope.admissionMode", None),
    "required-v1beta1-podsets": (WL.format(v="v1beta1", spec="  priority: 1"), "KQ001", "spec.podSets", None),
    "required-template": (WL.format(v="v1beta2", spec="  podSets: [{name: main, count: 1}]"), "KQ001", "spec.podSets[0].template", None),
    "required-containers": (
        WL.format(v="v1beta2", spec="  podSets: [{template: {spec: {}}}]"), "KQ001", "spec.podSets[0].template.spec.containers", None),
    "required-priority-class-ref-name": (
        WL.format(v="v1beta2", spec="  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass}"),
        "KQ001", "spec.priorityClassRef.name", None),
    "required-wpc-value": (WPC.format(v="v1beta2", body="description: x"), "KQ001", "value", None),
    "required-pc-value": (PC.format(body="globalDefault: false"), "KQ001", "value", None),
    "required-v1beta1-admission-cluster-queue": (
        WL.format(v="v1beta1", spec=ind(f"podSets:\n- {POD}")) + "status: {admission: {podSetAssignments: []}}\n",
        "KQ001", "status.admission.clusterQueue", None),
    # bounds
    "too-many-resource-groups": (
        CQ.format(v="v1beta2", spec="  resourceGroups:\n" + "".join(
            f"  - {{coveredResources: [r{i}], flavors: [{{name: f{i}, resources: [{{name: r{i}, nominalQuota: 1}}]}}]}}\n"
            for i in range(17))),
        "KQ005", "spec.resourceGroups", "at most 16"),
    "too-many-flavors": (
        COHORT.format(v="v1beta2", spec="  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" + "".join(
            f"    - {{name: f{i}, resources: [{{name: cpu, nominalQuota: 0}}]}}\n" for i in range(65))),
        "KQ005", "spec.resourceGroups[0].flavors", "at most 64"),
    "too-many-flavors-v1alpha1": (
        COHORT.format(v="v1alpha1", spec="  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n" + "".join(
            f"    - {{name: f{i}, resources: [{{name: cpu, nominalQuota: 0}}]}}\n" for i in range(17))),
        "KQ005", "spec.resourceGroups[0].flavors", "at most 16"),
    "no-covered-resources": (
        CQ.format(v="v1beta2", spec="  resourceGroups: [{coveredResources: [], flavors: [{name: a, resources: [{name: cpu, nominalQuota: 1}]}]}]"),
        "KQ004", "spec.resourceGroups[0].coveredResources", "at least 1"),
    "too-many-node-labels": (
        RF.format(v="v1beta2", spec="  nodeLabels: {" + ", ".join(f"k{i}: v" for i in range(9)) + "}"),
        "KQ005", "spec.nodeLabels", "at most 8"),
    "too-many-tolerations": (
        RF.format(v="v1beta1", spec="  tolerations: [" + ", ".join("{operator: Exists}" for _ in range(9)) + "]"),
        "KQ005", "spec.tolerations", None),
    "too-many-podsets": (
        WL.format(v="v1beta2", spec="  podSets:\n" + "".join(f"  - name: p{i}\n    {POD}\n" for i in range(19))),
        "KQ005", "spec.podSets", "at most 18"),
    "empty-podsets": (WL.format(v="v1beta2", spec="  podSets: []"), "KQ004", "spec.podSets", None),
    "podset-negative-count": (WL.format(v="v1beta2", spec=ind(f"podSets:\n- count: -1\n  {POD}")), "KQ004", "spec.podSets[0].count", None),
    "podset-min-count-negative": (  # 0 is valid since Kueue v0.20
        WL.format(v="v1beta2", spec=ind(f"podSets:\n- minCount: -1\n  {POD}")), "KQ004", "spec.podSets[0].minCount", None),
    "max-execution-time": (WL.format(v="v1beta2", spec="  maximumExecutionTimeSeconds: 0"), "KQ004", "spec.maximumExecutionTimeSeconds", None),
    "priority-int32": (WL.format(v="v1beta2", spec="  priority: 2147483648"), "KQ004", "spec.priority", "int32"),
    "wpc-value-int32": (WPC.format(v="v1beta1", body="value: -2147483649"), "KQ004", "value", "int32"),
    "wpc-description-v1beta2": (WPC.format(v="v1beta2", body=f"value: 1\ndescription: {'x' * 2049}"), "KQ005", "description", None),
    "admission-check-name-empty": (
        CQ.format(v="v1beta2", spec="  admissionChecksStrategy: {admissionChecks: [{name: ''}]}"),
        "KQ004", "spec.admissionChecksStrategy.admissionChecks[0].name", None),
    "too-many-conditions-v1beta2": (
        LQ.format(v="v1beta2", ns="a", spec="  {}") + "status:\n  conditions:\n" + "".join(
            f"  - {{type: T{i}, status: 'True', reason: R, message: m, lastTransitionTime: '2026-01-01T00:00:00Z'}}\n"
            for i in range(17)),
        "KQ005", "status.conditions", "at most 16"),
    # duplicates
    "duplicate-podset-default-name": (
        WL.format(v="v1beta2", spec=ind(f"podSets:\n- {POD}\n- count: 2\n  {POD}")),
        "KQ006", "spec.podSets[1].name", "'main'"),
    "duplicate-podset-explicit-main": (
        WL.format(v="v1beta1", spec=ind(f"podSets:\n- name: main\n  count: 1\n  {POD}\n- count: 1\n  {POD}")),
        "KQ006", "spec.podSets[1].name", None),
    "duplicate-flavor": (
        CQ.format(v="v1beta2", spec=ind("""
            resourceGroups:
            - coveredResources: [cpu]
              flavors:
              - {name: a, resources: [{name: cpu, nominalQuota: 1}]}
              - {name: a, resources: [{name: cpu, nominalQuota: 2}]}
        """)),
        "KQ006", "spec.resourceGroups[0].flavors[1].name", None),
    "duplicate-on-flavors": (
        CQ.format(v="v1beta2", spec="  admissionChecksStrategy: {admissionChecks: [{name: a, onFlavors: [x, x]}]}"),
        "KQ006", "spec.admissionChecksStrategy.admissionChecks[0].onFlavors[1]", None),
    "duplicate-admission-check": (
        CQ.format(v="v1beta2", spec="  admissionChecksStrategy: {admissionChecks: [{name: a}, {name: a}]}"),
        "KQ006", "spec.admissionChecksStrategy.admissionChecks[1].name", None),
    "duplicate-condition-type": (
        LQ.format(v="v1beta1", ns="a", spec="  {}") + "status:\n  conditions:\n" + "".join(
            "  - {type: Active, status: 'True', reason: Ready, message: m, lastTransitionTime: '2026-01-01T00:00:00Z'}\n"
            for _ in range(2)),
        "KQ006", "status.conditions[1].type", None),
    # types
    "type-label-value": (RF.format(v="v1beta2", spec="  nodeLabels: {spot: true}"), "KQ003", "spec.nodeLabels[spot]", None),
    "type-count-string": (WL.format(v="v1beta2", spec=ind(f"podSets:\n- count: '2'\n  {POD}")), "KQ003", "spec.podSets[0].count", None),
    "type-active": (WL.format(v="v1beta2", spec="  active: 'no'"), "KQ003", "spec.active", None),
    "type-resource-groups-map": (CQ.format(v="v1beta2", spec="  resourceGroups: {cpu: 1}"), "KQ003", "spec.resourceGroups", None),
    "type-feature-gate": (CFG.format(v="v1beta2", body="featureGates: {PartialAdmission: 'off'}"),
                          "KQ003", "featureGates[PartialAdmission]", None),
    "type-fair-sharing-enable": (CFG.format(v="v1beta1", body="fairSharing: {enable: 'yes'}"), "KQ003", "fairSharing.enable", None),
    "config-duration": (CFG.format(v="v1beta2", body="waitForPodsReady: {timeout: 5 minutes}"), "KQ004", "waitForPodsReady.timeout", None),
    "condition-time": (
        LQ.format(v="v1beta2", ns="a", spec="  {}")
        + "status:\n  conditions: [{type: Active, status: 'True', reason: Ready, message: m, lastTransitionTime: yesterday}]\n",
        "KQ004", "status.conditions[0].lastTransitionTime", None),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_object(tmp_path, name):
    text, code, field, fragment = INVALID[name]
    diags = check(tmp_path, text)
    hits = [d for d in diags if d.code == code and d.field == field]
    assert hits, f"expected {code} at {field}; got {[(d.code, d.field, d.message) for d in diags]}"
    if fragment:
        assert any(fragment in d.message for d in hits), [d.message for d in hits]
    for d in hits:
        assert d.line >= 1 and d.column >= 1


def test_yaml_float_quantity_is_reported_only_as_kq008(tmp_path):
    diags = check(tmp_path, CQ.format(v="v1beta2", spec=QUOTA.format(q="1.5")))
    fields = {(d.code, d.field) for d in diags}
    assert fields == {("KQ008", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota")}


def test_status_and_pod_templates_accept_unknown_fields(tmp_path):
    text = WL.format(v="v1beta2", spec=ind("""
        podSets:
        - template:
            metadata: {labels: {a: b}, somethingNew: 1}
            spec:
              containers: [{name: c, image: busybox, env: [{name: A, value: b}]}]
              schedulerName: custom
              unknownPodField: {x: y}
    """)) + "status:\n  newStatusField: {a: 1}\n  admission: {clusterQueue: cq, extra: true}\n"
    assert not check(tmp_path, text)


def test_v1beta1_and_v1beta2_cohort_field_names(tmp_path):
    v1 = check(tmp_path, CQ.format(v="v1beta1", spec="  cohort: org"))
    v2 = check(tmp_path, CQ.format(v="v1beta2", spec="  cohortName: org"))
    assert not v1 and not v2
