"""The Kueue engine: pure functions over the model (quotactl.model.kueue) mirroring Kueue's split.

    amounts      quantities as Kueue's int64 amounts, and Kueue's way of printing them
    priority     effective priority (and where it came from), queue-order timestamps
    workload     what a pending workload requests / what an admitted one holds
    quota        the quota tree snapshot: SubtreeQuota, usage, available, potential_available
    preemption/  the preemption oracle and target search (classical and fair sharing)
    assign       flavor assignment, identical to Kueue's flavor assigner
    reasons      the reasons and messages Kueue writes on a pending workload
    nomination   the checks before nomination (queues, namespace, admission checks), the assigner
    lookup       finding a workload by the name a user typed
    explain      the explanation model behind ``quotactl explain`` (data only)
    preempt_decision  the model behind ``quotactl preempt`` (victims, every candidate step, exclusions,
                 resulting usage, the rule that blocks preemption)

Nothing here prints, reads files or imports typer/rich.
"""
