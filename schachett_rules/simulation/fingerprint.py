"""What a stored result was played by: the package's version and the source of every module that decides a game.

A cached run is only as good as the code that played it. Keying the cache by the version alone served the
results of an older player or an older reading of a rule until the version moved; the source of the modules
that deal, play, score and measure is read once per process and hashed with it.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from .. import __version__

# the subpackages whose code decides what a game or a measurement comes to (not the site, server or printing)
DECIDING = ("kernel", "language", "rules", "players", "playouts", "search", "simulation", "engine", "studies")


@functools.cache
def code_version() -> str:
    """The package's version and a hash of the source of the modules that decide a game's result.

    >>> code_version().startswith(__import__("schachett_rules").__version__ + "+")
    True
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for sub in DECIDING:
        for path in sorted((root / sub).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"
