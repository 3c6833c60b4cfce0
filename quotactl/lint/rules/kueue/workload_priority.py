"""KQ420: a Workload's spec.priority versus the priority class it names (kueue
``pkg/util/priority/priority.go``)."""

from __future__ import annotations

from quotactl.lint.rule import Finding, RuleDoc, rule

WL = ("Workload",)


@rule(
    code="KQ420", name="priority-differs-from-class", severity="warning", layer="reference", kinds=WL,
    summary="spec.priority differs from the value of the priority class the Workload names",
    doc=RuleDoc(
        what="Compares a Workload's spec.priority with the value of the WorkloadPriorityClass or PriorityClass "
             "named by spec.priorityClassRef (v1beta1: priorityClassName + priorityClassSource), when that class "
             "is in the input.",
        why="Kueue copies the class value into spec.priority once, when it creates the Workload, and never "
            "updates it: changing a class's value does not re-prioritise existing workloads. Scheduling and "
            "preemption use spec.priority, so this Workload is ordered by the old value.",
        fix="If the new value should apply, recreate the Workload (re-submit the job) or edit spec.priority "
            "while it is not admitted; otherwise this is expected after a class change.",
        bad="kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\nkind: Workload\nspec:\n"
            "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n  priority: 100\n",
        good="kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\nkind: Workload\nspec:\n"
             "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}\n  priority: 1000\n",
        source=("kueue pkg/controller/jobframework/reconciler.go ExtractPriority (the class value is copied "
                "when the Workload is created)"),
    ),
)
def check_priority_matches_class(wl, ctx):
    ref = wl.priority_class_ref
    if ref is None or not ref.name or wl.priority is None:
        return
    if ref.is_workload_priority_class:
        cls, kind = ctx.cluster.workload_priority_classes.get(ref.name), "WorkloadPriorityClass"
    elif ref.is_pod_priority_class:
        cls, kind = ctx.cluster.priority_classes.get(ref.name), "PriorityClass"
    else:
        return
    if cls is None or cls.value is None or cls.value == wl.priority:
        return
    yield Finding(
        ("spec", "priority"),
        f"spec.priority is {wl.priority} but {kind} {ref.name} has value {cls.value}; Kueue copied the class value "
        "when the Workload was created and never updates it, so this Workload is scheduled and preempted with "
        f"priority {wl.priority}",
        type=None,
        hint=f"Re-create the Workload (or set spec.priority: {cls.value} while it is not admitted) if the class "
             "value should apply.",
        related=(f"{cls.source.ref.file}:{cls.source.ref.pos().line}",),
    )
