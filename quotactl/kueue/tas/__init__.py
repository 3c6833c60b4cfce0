"""Kueue's topology-aware scheduling (TAS): the typed topology of each TAS flavor, the placement
algorithm (``snapshot``), the TAS part of the scheduler's snapshot (``state``) and the TAS step of
the flavor assigner (``assigner``)."""
