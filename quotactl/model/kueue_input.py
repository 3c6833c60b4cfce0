"""The Kueue model of one engine command's input, each object built once per run.

Three readers want three parts of it: job derivation the configuration (Namespaces, LocalQueues,
priority classes, the manager Configuration: every object but the Workloads), most engines the
whole cluster, and ``explain`` / ``preempt`` of one Workload only that Workload's cohort tree
(``kueue/scope.py``: a big snapshot's other trees are never modelled). Each part is built on
first use from the same memo, so a Workload modelled for the tree is not modelled again for the
whole cluster (``explain --eta``); ``diff``'s two sides share one memo, so the objects of its
shared files are built once too.
"""

from __future__ import annotations

from quotactl.load.objects import KubeObject
from quotactl.model.kueue import BuildMemo, KueueCluster, build_cluster


class KueueInput:
    def __init__(self, objects: list[KubeObject], memo: BuildMemo | None = None):
        self.objects = list(objects)
        self._memo = memo if memo is not None else BuildMemo()
        self._configuration: KueueCluster | None = None
        self._cluster: KueueCluster | None = None

    @property
    def configuration(self) -> KueueCluster:
        """The model of every object but the Workloads."""
        if self._configuration is None:
            self._configuration = build_cluster([o for o in self.objects if o.kind != "Workload"], memo=self._memo)
        return self._configuration

    def add_workloads(self, workloads: list[KubeObject]) -> None:
        """Workloads that join the input (those derived from its jobs), before the cluster is built."""
        assert self._cluster is None and all(o.kind == "Workload" for o in workloads)
        self.objects.extend(workloads)

    def cluster(self) -> KueueCluster:
        """The whole input's model: the configuration, then every Workload in input order."""
        if self._cluster is None:
            self._cluster = self.with_workloads([o for o in self.objects if o.kind == "Workload"])
        return self._cluster

    def with_workloads(self, workloads: list[KubeObject]) -> KueueCluster:
        """The configuration and only ``workloads`` (Workload objects of this input)."""
        return build_cluster(workloads, onto=self.configuration, memo=self._memo)
