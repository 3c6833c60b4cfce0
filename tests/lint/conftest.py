"""Fixtures for the lint rule tests in this folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _raise_rule_errors(monkeypatch):
    """A crashing rule fails the test instead of becoming a QL999 diagnostic."""
    monkeypatch.setenv("QUOTACTL_RAISE_RULE_ERRORS", "1")
