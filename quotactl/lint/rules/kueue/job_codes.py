"""The job integrations' diagnostics (JB001-JB003): emitted by ``quotactl.jobs`` when it derives
Workloads (``quotactl workload`` and every engine command), registered here so ``quotactl rules``
documents them."""

from quotactl.jobs.codes import ASSUMED_NAMESPACE, MALFORMED, UNKNOWN_VERSION
from quotactl.lint.rule import RuleDoc, rule

SOURCE = "kueue pkg/controller/jobframework/reconciler.go ReconcileGenericJob"


def _job_code(code: str, name: str, severity: str, summary: str, doc: RuleDoc) -> None:
    rule(code=code, name=name, severity=severity, summary=summary, doc=doc, layer="input")(None)


_job_code(MALFORMED, "malformed-job", "error", "A job object Kueue cannot turn into a Workload", RuleDoc(
    what="A job object with a missing or unreadable field the Workload is built from: no pod template, a negative "
         "parallelism, a count that is not a number, more pod sets than a Workload holds.",
    why="The API server or Kueue's webhook rejects such an object; quotactl derives no Workload for it, says "
        "where, and goes on with the rest of the input.",
    fix="Correct the field named in the message.",
    bad="kind: Job\nspec:\n  parallelism: -1\n", good="kind: Job\nspec:\n  parallelism: 1\n",
    source=f"{SOURCE}; the integrations' webhooks (pkg/controller/jobs/*/*_webhook.go)"))
_job_code(UNKNOWN_VERSION, "unknown-job-version", "warning", "A job kind at an API version quotactl does not know",
          RuleDoc(
    what="A job object of a kind Kueue integrates, at an apiVersion quotactl cannot read (e.g. kubeflow.org/v2 "
         "PyTorchJob).",
    why="Its fields may differ from the versions Kueue's integration reads; quotactl derives no Workload rather "
        "than guess.",
    fix="Convert the manifest to a known version (the message lists them).",
    bad="apiVersion: jobset.x-k8s.io/v1\nkind: JobSet\n", good="apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n",
    source=f"{SOURCE}; pkg/controller/jobframework/integrationmanager.go (one integration per GroupVersionKind)"))
_job_code(ASSUMED_NAMESPACE, "job-namespace-assumed-managed", "info",
          "A job's Namespace is not in the input: assumed managed by Kueue", RuleDoc(
    what="The Configuration's managedJobsNamespaceSelector selects on namespace labels, and the job's Namespace "
         "object is not in the input.",
    why="Kueue manages only jobs in matching namespaces; without the Namespace quotactl cannot tell and assumes "
        "the labels match.",
    fix="Add the Namespace (kubectl get namespace <name> -o yaml) to the input.",
    bad="# a Job in namespace ml, no Namespace ml in the input\n",
    good="apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ml\n",
    source=f"{SOURCE}; IsNamespaceManaged"))
