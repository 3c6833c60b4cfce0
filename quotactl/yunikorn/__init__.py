"""The YuniKorn engine: pure functions over ``quotactl.model.yunikorn`` objects (no I/O, no printing).

``validate``   the validator's rules (configvalidator.go), every failure instead of the first
``properties`` how YuniKorn parses and inherits queue properties (lenient parsing, defaults)
``tree``       the effective queue tree quotactl shows (``quotactl queues``)
``snapshot``   the preemptor's per-queue resource arithmetic (QueuePreemptionSnapshot)
"""
