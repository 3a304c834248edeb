"""The built-in rule systems, one package each.

``BUILT_IN_ODDS`` names each built-in ruleset's odds capability (its ``Capabilities.odds``; a
test checks they agree), so that a cold ``umpire odds`` (``umpire.analysis.odds_command``) can
import that one module without the entry-point registry or the ruleset itself. The names of the
rulesets live here, in the package that holds them, not in the layers that serve every ruleset.
"""

BUILT_IN_ODDS: dict[str, str] = {
    "bookgun": "umpire.rulesets.bookgun.odds_cli:ODDS",
    "portable": "umpire.rulesets.portable.odds_cli:ODDS",
    "rhine": "umpire.rulesets.rhine.odds_cli:ODDS",
    "sevendays": "umpire.rulesets.sevendays.odds_cli:ODDS",
}
