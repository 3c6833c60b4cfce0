"""``quotactl snapshot``: write what quotactl reads from a cluster to a file, to attach to a
ticket and replay offline (``-f snap.yaml``) with the same answers."""

from __future__ import annotations

import typer

from quotactl.cli.common import EXIT_OK, ClusterArgs, cluster_options, emit, fail_usage
from quotactl.cli.inputs import check_cluster_args, read_cluster_once
from quotactl.cli.output import output_option


@cluster_options
def snapshot_command(
    output: str = output_option("snapshot", default="yaml"),
    cluster: ClusterArgs = ClusterArgs(),
) -> None:
    """Write the objects quotactl reads from the cluster (Kueue: flavors, queues, cohorts,
    Workloads, priority classes, namespaces, Topologies, the jobs Kueue manages and the manager's
    ConfigMap, with a TAS flavor also Nodes and live Pods; YuniKorn: its ConfigMaps, Nodes and Pods) as one kind: List, in a fixed order with sorted
    keys: the same cluster gives the same bytes.

    \b
      quotactl snapshot --from-cluster -o yaml > snap.yaml
      quotactl explain ns/name -f snap.yaml

    Lists the credentials may not read are named on stderr and in the List's
    quotactl.io/skipped annotation. Exit status: 0, or 2 when the cluster cannot be read.
    """
    check_cluster_args(cluster)
    if not cluster.from_cluster:
        fail_usage("quotactl snapshot reads a cluster: add --from-cluster (and --context NAME if needed)")
    emit("snapshot", read_cluster_once(cluster), output)
    raise typer.Exit(EXIT_OK)
