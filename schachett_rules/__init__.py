"""schachett_rules: the rules of Schachett (c. 1888) as data, an engine that plays them, and tools around both.

The rule files in ``variants/`` are parsed into an IR (:mod:`schachett_rules.language.ir`),
checked against the manual (:mod:`schachett_rules.rules.manual`), compiled into plain
tables (:mod:`schachett_rules.kernel.compiler`) and played by one engine
(:mod:`schachett_rules.engine.game`) whatever the variant.
"""

__version__ = "0.1.0"
