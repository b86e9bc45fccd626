"""schachett_rules: the rules of Schachett (c. 1888) as data, an engine that plays them, and tools around both.

The rule files in ``variants/`` are parsed into an IR (:mod:`schachett_rules.language.ir`),
checked against the manual (:mod:`schachett_rules.rules.manual`), compiled into plain
tables (:mod:`schachett_rules.kernel.compiler`) and played through one game state
(:mod:`schachett_rules.kernel.state`) whatever the variant: every player, search, table and replay
walks the game through it, and the compiled play-outs (:mod:`schachett_rules.playouts.compiled`) walk
the same phases from the same tables.
"""

__version__ = "0.2.0"
