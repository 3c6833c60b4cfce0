"""Kueue preemption: the oracle used during flavor assignment and the target search behind it.

    policy       the preemption policies: which candidate a policy allows, and why not (one copy)
    common       candidate ordering, fits / add-back helpers, Target, Preemptor
    classical    candidate discovery per policy (withinClusterQueue, reclaimWithinCohort,
                 borrowWithinCohort) through hierarchical cohorts; the minimal-set search
    fairsharing  fair-sharing candidates, target ordering by dominant resource share, strategies
    targets      get_targets(): the victim search for a whole assignment (optionally traced)
    oracle       simulate_preemption(): the flavor assigner's per-fr question
"""
