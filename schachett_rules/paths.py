"""Where the project's data lives: the manual, the rule files, the caches.

The package runs from a checkout of the project (installed in editable mode),
so the data folders sit beside the package. ``SCHACHETT_HOME`` points
elsewhere when the data is kept apart from the code.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator

from .errors import RecordError

RULESET_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
RULE_SUFFIX = ".schachett"


def _a_ruleset_name(value: str) -> str:
    # Records and sessions name a ruleset of variants/, never a path: they travel, paths should not.
    if not RULESET_NAME.match(value):
        raise ValueError(f"{value!r} is not a ruleset name (lower-case words joined by hyphens, such as "
                         f"'original'); a record cannot point at a file")
    return value


RulesetName = Annotated[str, AfterValidator(_a_ruleset_name)]
"""A ruleset's name in a record or session file, checked to be a name and not a path."""


def home() -> Path:
    """The project folder that holds ``manual/`` and ``variants/``."""
    env = os.environ.get("SCHACHETT_HOME")
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parent.parent


def manual_dir() -> Path:
    """The folder of the manual, one file per section."""
    return home() / "manual"


def variants_dir() -> Path:
    """The folder of the rule files."""
    return home() / "variants"


def ruleset_path(name: str, near: Path | None = None) -> Path:
    """The rule file for a ruleset name, looked up beside ``near`` and then in ``variants/``.

    Names are plain words with hyphens, so a rule file can never reach a
    path outside these folders.

    >>> ruleset_path("original").name
    'original.schachett'
    >>> ruleset_path("../etc/passwd")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.RecordError: '../etc/passwd' is not a ruleset name: a ruleset is named in lower-case words joined by hyphens, such as 'original' or 'ai-reconstruction'
    """
    if not RULESET_NAME.match(name):
        raise RecordError(f"{name!r} is not a ruleset name: a ruleset is named in lower-case words joined by "
                          "hyphens, such as 'original' or 'ai-reconstruction'")
    folders = ([near] if near is not None else []) + [variants_dir()]
    for folder in folders:
        candidate = folder / f"{name}{RULE_SUFFIX}"
        if candidate.is_file():
            return candidate
    return folders[-1] / f"{name}{RULE_SUFFIX}"


def known_rulesets() -> list[str]:
    """The names of the rule files in ``variants/``, sorted."""
    return sorted(p.stem for p in variants_dir().glob(f"*{RULE_SUFFIX}"))
