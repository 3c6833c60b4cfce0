"""Input diagnostics about what a file is rather than what it says (emitted by the loader,
registered here so ``quotactl rules`` documents them): a path that does not exist, a misspelt Kueue
apiVersion or kind, and files that are not manifests yet (Helm templates, Kustomize, docs snippets)."""

from quotactl.lint.rule import RuleDoc, rule

rule(code="IN012", name="missing-path", severity="error", summary="Input path does not exist",
     doc=RuleDoc(
         what="A file or directory named on the command line does not exist.",
         why="A renamed or deleted manifest directory would otherwise let CI pass while checking nothing. The "
             "other inputs are still linted, so every finding is reported; the run exits 2.",
         fix="Fix the path, or remove it from the command line (a CI job or a pre-commit hook).",
         source="quotactl loader"),
     dialect="input", layer="input")(None)

rule(code="IN013", name="misspelt-kueue-kind", severity="error", summary="Misspelt Kueue apiVersion or kind",
     doc=RuleDoc(
         what="An object's kind is not one of its Kueue API group (kueue.x-k8s.io, config.kueue.x-k8s.io), "
              "including a kind in the wrong case, or its apiVersion group is a few edits from Kueue's (at most "
              "two insertions, deletions, substitutions or swapped neighbours, or a group whose first label is "
              "kueue). The message names the nearest kind and apiVersion Kueue serves.",
         why="kubectl refuses the object (no matches for kind) and the API server never sees it, so the queue, "
             "flavor or quota it defines does not exist. Skipped silently, the typo would pass CI.",
         fix="Write the kind and apiVersion the message suggests.",
         bad="apiVersion: kueue.k8s.io/v1beta2\nkind: Clusterqueue\nmetadata:\n  name: team-a\n",
         good="apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-a\n",
         source="Kueue apis/kueue/v1beta2/*_types.go (the kinds and their group); Kubernetes apimachinery "
                "meta.NoKindMatchError (what kubectl answers)"),
     dialect="input", layer="input")(None)

rule(code="IN014", name="not-a-manifest", severity="info", summary="File is a template, not a manifest; skipped",
     doc=RuleDoc(
         what="A Helm chart (a directory with Chart.yaml: its templates and values), a Helm template anywhere "
              "(text with {{ .Values... }} actions), a Kustomization (kustomization.yaml or kind: Kustomization) "
              "and the patch files it names (patches, patchesStrategicMerge, patchesJson6902): reported once per "
              "file, once per chart, with the command that renders it for quotactl. A documentation snippet (a "
              "whole value that is a <placeholder>, or a '...' elision) is linted: one note names its "
              "placeholders, whose values are unknown (a finding about one is set aside, as suppressed), and its "
              "elided lines, left out; everything else is checked. An engine command refuses a placeholder where "
              "it needs a number, a quantity or one of a set of values (an error, exit 2).",
         why="Charts, templates and patches become manifests only after helm or kustomize renders them: read as "
             "YAML they are a syntax error or half an object, and would hide the findings of the real manifests "
             "beside them. A snippet's mistakes are real, and its placeholders are not mistakes.",
         fix="Lint what the tool renders: helm template CHART | quotactl lint -, or "
             "kubectl kustomize DIR | quotactl lint -. Fill in a snippet's placeholders to check them too.",
         bad="apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: {{ .Values.queue }}\n",
         source="quotactl loader"),
     dialect="input", layer="input")(None)
