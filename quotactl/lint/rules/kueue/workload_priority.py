"""KQ420: a Workload's spec.priority versus the priority class it names, judged by the one priority
answer every command uses (quotactl.kueue.priority.workload_priority)."""

from __future__ import annotations

from quotactl.kueue.priority import workload_priority
from quotactl.lint.rule import Finding, RuleDoc, rule

WL = ("Workload",)


@rule(
    code="KQ420", name="priority-differs-from-class", severity="warning", layer="reference", kinds=WL,
    summary="spec.priority differs from the value of the priority class the Workload names",
    doc=RuleDoc(
        what="Compares a Workload's spec.priority with the value of the WorkloadPriorityClass or PriorityClass "
             "named by spec.priorityClassRef (v1beta1: priorityClassName + priorityClassSource), when that class "
             "is in the input, and says which of the two Kueue schedules and preempts the Workload with.",
        why="Kueue's scheduler and preemption read only spec.priority. From Kueue v0.15 (v0.15.3, v0.16.0) its "
            "WorkloadPriorityClass controller rewrites spec.priority to the class value at every start and on "
            "every change of the value, so the class value wins (explain, schedule, preempt and simulate use it). "
            "A PriorityClass (and a WorkloadPriorityClass in v0.14) is copied once, when the Workload is created, "
            "and never followed, so spec.priority wins. Either way the two numbers in the input disagree about "
            "the Workload's place in the queue.",
        fix="Write the value Kueue uses in both places: for a WorkloadPriorityClass, set spec.priority to the class "
            "value (or change the class, which re-prioritises every Workload that names it); for a PriorityClass, "
            "re-create the Workload (re-submit the job) if the new class value should apply.",
        bad="kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\nkind: Workload\nspec:\n"
            "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n  priority: 100\n",
        good="kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\nkind: Workload\nspec:\n"
             "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n  priority: 1000\n",
        source=("kueue pkg/util/priority/priority.go Priority; pkg/controller/core/workloadpriorityclass_controller.go "
                "Reconcile (kueue#8442); pkg/controller/jobframework/reconciler.go (the class value copied at "
                "creation)"),
    ),
)
def check_priority_matches_class(wl, ctx):
    info = workload_priority(ctx.cluster, wl, ctx.gates)
    if not info.disagrees:
        return
    cls = (ctx.cluster.workload_priority_classes if info.class_kind == "WorkloadPriorityClass"
           else ctx.cluster.priority_classes)[info.class_name]
    follows_class = info.base == info.class_value
    yield Finding(
        ("spec", "priority"),
        info.note,
        type=None,
        hint=(f"Set spec.priority: {info.class_value} to match what Kueue writes, or change the class value."
              if follows_class else
              f"Re-create the Workload (re-submit the job) if the class value {info.class_value} should apply."),
        related=(f"{cls.source.ref.file}:{cls.source.ref.pos().line}",),
    )
