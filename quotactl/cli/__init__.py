"""The thin Typer layer: parse options, call load -> engine -> report, set the exit code."""
