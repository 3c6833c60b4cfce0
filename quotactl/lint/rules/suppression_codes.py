"""Findings about suppressions themselves (QL1xx): emitted by lint/suppress.py, registered here so
``quotactl rules`` documents them and --select / --ignore / the config file accept their codes."""

from quotactl.lint.rule import RuleDoc, rule

_SOURCE = "quotactl suppressions (docs/configuration.md)"

rule(code="QL100", name="invalid-suppression", severity="warning", dialect="input", layer="config",
     summary="Suppression comment or annotation names an unknown code",
     doc=RuleDoc(
         what="A '# quotactl: disable=...' comment or a quotactl.io/ignore annotation names a code no rule has, "
              "or is malformed (an unknown directive, codes without '=').",
         why="A typo in a suppression silences nothing: the finding it was meant for still fails the run, "
             "or the comment hides a different one later.",
         fix="Use the code exactly as `quotactl rules` lists it.",
         bad="# quotactl: disable=KQ5O6\n",
         good="# quotactl: disable=KQ506\n",
         source=_SOURCE))(None)

rule(code="QL101", name="unused-suppression", severity="info", dialect="input", layer="config",
     summary="Suppression that silenced nothing",
     doc=RuleDoc(
         what="A suppression comment or annotation names a code that had no finding where it applies "
              "(codes the run does not check, because of --select, --ignore or severity off, are not reported).",
         why="A stale suppression would silently hide the next real finding of that code at that place.",
         fix="Remove the code from the suppression, or the whole comment or annotation.",
         source=_SOURCE))(None)
