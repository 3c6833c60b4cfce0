"""jobs.registry: every kind the loader classifies as a job has its integration, and no other."""

from quotactl.jobs.registry import INTEGRATIONS
from quotactl.load.objects import JOB_KINDS


def test_the_loader_knows_exactly_the_integrated_kinds():
    assert set(INTEGRATIONS) == JOB_KINDS
