"""The YuniKorn engine: pure functions over ``quotactl.model.yunikorn`` objects (no I/O, no printing).

``validate``    the validator's rules (configvalidator.go), every failure instead of the first
``properties``  how YuniKorn parses and inherits queue properties (lenient parsing, defaults)
``tree``        the effective queue tree quotactl shows (``quotactl queues``)
``snapshot``    the preemptor's per-queue resource arithmetic (QueuePreemptionSnapshot)
``cluster``     the cluster as the core sees it: queues, nodes, applications, allocations, asks
``shim``        typed Nodes / Pods (``quotactl.model.yunikorn_cluster``) -> that cluster, as the k8s
                shim maps them
``shim_queues`` the partition's queues as the core builds them, and the queues placement creates
``placement``   placement rules: the leaf queue of an application
``priority``    application / queue priorities (offsets, fences) and the scheduling order
``predicates``  the shim's node predicates (selectors, affinity, taints, resource fit)
``preemptor``   Preemptor.TryPreemption step by step (fence, victims, guarantees, nodes, final cut)
``scheduling``  one ask through the scheduling cycle (headroom, nodes, then the preemptor)
``explain``     the explanation of one pod (``quotactl explain`` / ``preempt``)
``live``        live usage and priorities for ``quotactl queues`` with a cluster state
"""
