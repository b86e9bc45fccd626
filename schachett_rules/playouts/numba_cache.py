"""Where numba keeps the compiled state between runs: one folder per version of the sources it is compiled from.

numba's own cache checks only the file a function is written in. The compiled loops inline the kernel's leaf
rules (``kernel/core.py``, ``kernel/castling.py``) and call functions of other files (the phases before play,
the search), so a changed rule in one of those would leave an older loop in the cache, playing the old rule.
The folder is therefore named by a hash of every source the compiled code is built from: a change anywhere in
them compiles afresh. Older folders of this checkout are removed; a folder chosen with ``NUMBA_CACHE_DIR``
(shared, perhaps, by several checkouts) is left as it is, the hash's folder made inside it.

>>> folder = compiled_code_folder()
>>> folder.name == "numba-" + source_hash()
True
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
# the subpackages whose source the compiled functions are built from
SOURCES = ("kernel", "playouts", "search")


@functools.cache
def source_hash() -> str:
    """A short hash of the sources of :data:`SOURCES`.

    >>> len(source_hash())
    16
    """
    digest = hashlib.sha256()
    for sub in SOURCES:
        for path in sorted((_PACKAGE / sub).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_code_folder() -> Path:
    """The folder for this version of the compiled code (not created here)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    base = Path(chosen) if chosen else _PACKAGE / "__pycache__" / "compiled"
    return base / f"numba-{source_hash()}"


def use_folder() -> None:
    """Point numba's cache at :func:`compiled_code_folder`, before any function is compiled with ``cache=True``;
    in the package's own cache, remove the folders of other versions."""
    from numba.core import config
    folder = compiled_code_folder()
    config.CACHE_DIR = str(folder)
    if not os.environ.get("NUMBA_CACHE_DIR") and folder.parent.is_dir():
        for old in folder.parent.glob("numba-*"):
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
