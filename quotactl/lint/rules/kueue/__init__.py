"""Kueue rules: one module per rule or small family of rules."""
