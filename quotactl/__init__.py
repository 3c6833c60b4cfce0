"""quotactl: lint, explain and dry-run Kueue and Apache YuniKorn queue configurations."""

__version__ = "0.1.0"
