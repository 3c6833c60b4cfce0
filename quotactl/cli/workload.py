"""``quotactl workload``: the Workloads Kueue would create for job manifests (Jobs, JobSets, Ray,
Kubeflow, Pods, Deployments, ...), and the objects it would ignore, with the reason."""

from __future__ import annotations

import sys

import typer

from quotactl.cli.common import (
    EXIT_OK,
    ClusterArgs,
    FileOption,
    MaxFileSizeOption,
    WideOption,
    cluster_options,
    emit,
    fail_usage,
)
from quotactl.cli.inputs import check_cluster_args, config_input
from quotactl.cli.output import output_option
from quotactl.diagnostics import Severity, sort_diagnostics
from quotactl.jobs import derive_workloads
from quotactl.jobs.context import build_context
from quotactl.model.kueue import build_cluster
from quotactl.report.renderers import Outcome


@cluster_options
def workload_command(
    files: list[str] = FileOption,
    output: str = output_option("workload", default="yaml"),
    wide: bool = WideOption,
    max_file_size: str = MaxFileSizeOption,
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Print the Workloads Kueue would create for the job objects in the input (batch/v1 Job, JobSet,
    LeaderWorkerSet, RayJob, RayCluster, Kubeflow jobs, MPIJob, TrainJob, AppWrapper, Pods and pod
    groups, Deployments, StatefulSets): pod sets, counts, min counts, queue and priority.

    The output is a kind: List of kueue.x-k8s.io/v1beta2 Workloads, so it can be passed to every other
    command. Objects Kueue would ignore are listed under `skipped` with the reason. Add the
    LocalQueues, priority classes, RuntimeClasses, LimitRanges, Namespaces and the Kueue Configuration
    they need. Malformed job objects are reported on stderr (file:line) and skipped; exit 2 only when
    the input cannot be read or holds no job objects.
    """
    check_cluster_args(cluster)
    if not files and not cluster.from_cluster:
        fail_usage("no input: give job manifests with -f FILE (or '-' for stdin), or --from-cluster")
    loaded, _gates = config_input(list(files or []), max_file_size, cluster=cluster)
    fatal = [d for d in loaded.diagnostics if d.input_error and d.severity == Severity.ERROR]
    if fatal:
        fail_usage(f"{fatal[0].location()}: {fatal[0].message}")
    cluster_model = build_cluster(loaded.objects)
    workloads, skipped, diagnostics = derive_workloads(loaded.objects, build_context(cluster_model, loaded.objects))
    diagnostics = sort_diagnostics(diagnostics)
    for d in diagnostics:
        sys.stderr.write(f"{d.location()}: {d.severity.value}: {d.object}: {d.field}: {d.message} [{d.code}]\n")
    if not (workloads or skipped or diagnostics):
        fail_usage("input holds no job objects (Job, JobSet, RayJob, PyTorchJob, Pod, Deployment, ...)")
    emit("workload", Outcome((workloads, skipped, diagnostics), cluster_model), output, wide)
    raise typer.Exit(EXIT_OK)


__all__ = ["workload_command"]
