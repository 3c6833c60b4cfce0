"""LocalQueue rules (kueue ``apis/kueue/v1beta2/localqueue_types.go``)."""

from __future__ import annotations

from quotactl.diagnostics import Severity
from quotactl.lint.rule import Finding, RuleDoc, rule


@rule(
    code="KQ440", name="local-queue-stopped", severity="warning", layer="runtime", kinds=("LocalQueue",),
    summary="LocalQueue stopPolicy is Hold or HoldAndDrain",
    doc=RuleDoc(
        what="A LocalQueue whose spec.stopPolicy is not None. Hold is reported as info, HoldAndDrain as a warning.",
        why="Any stopPolicy other than None makes the LocalQueue inactive: Hold admits no new workloads from "
            "it (running ones continue); HoldAndDrain also evicts its admitted workloads. Pending workloads "
            "show \"LocalQueue <name> is stopped\". This is usually a deliberate, temporary operation that is "
            "easy to forget.",
        fix="Set stopPolicy: None (or remove it) to resume admission.",
        bad="spec:\n  clusterQueue: team-a\n  stopPolicy: HoldAndDrain\n",
        good="spec:\n  clusterQueue: team-a\n",
        source="kueue pkg/controller/core/workload_controller.go getQueueBlocker (LocalQueue stopPolicy)",
    ),
)
def check_stop_policy(lq, ctx):
    if lq.stop_policy == "Hold":
        yield Finding(
            ("spec", "stopPolicy"),
            f"LocalQueue {lq.namespace}/{lq.name} is on hold: no new workloads are admitted from it "
            "(admitted ones keep running)",
            type=None, severity=Severity.INFO,
            hint="Set stopPolicy: None to resume admission.",
        )
    elif lq.stop_policy == "HoldAndDrain":
        yield Finding(
            ("spec", "stopPolicy"),
            f"LocalQueue {lq.namespace}/{lq.name} is draining: no workloads are admitted from it and its admitted "
            "workloads are evicted",
            type=None,
            hint="Set stopPolicy: None to resume admission.",
        )
