"""The linter: schema validation plus registered semantic rules, producing Diagnostics."""
