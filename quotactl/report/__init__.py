"""Renderers: each takes a result model and returns text.  Nothing here computes quota."""
