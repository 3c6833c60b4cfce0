"""The codes of the job integrations' diagnostics, apart from ``derive`` so that ``quotactl rules``
and lint can name them without importing every integration."""

MALFORMED = "JB001"
UNKNOWN_VERSION = "JB002"
ASSUMED_NAMESPACE = "JB003"
