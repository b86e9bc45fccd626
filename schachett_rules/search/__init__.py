"""Exact analysis of open hands: the best result each party can force, and the line that forces it.

:mod:`.equivalence` finds the cards a search may treat as one; :mod:`.alphabeta` is the search itself, on the
compiled state of :mod:`schachett_rules.playouts.compiled`; :mod:`.exact` is the Python face of it (the par
of a kernel state, the value of every move, the best line as kernel actions).
"""
