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
MAX_NAME = 64          # characters in a ruleset's name: far below any file system's limit on a file name


def is_ruleset_name(value: str) -> bool:
    """Whether ``value`` is a ruleset name (lower-case words joined by hyphens, at most 64 characters).

    >>> is_ruleset_name("ai-reconstruction"), is_ruleset_name("../x"), is_ruleset_name("x" * 65)
    (True, False, False)
    """
    return isinstance(value, str) and len(value) <= MAX_NAME and bool(RULESET_NAME.match(value))


def _shown(value: str) -> str:
    """A name as an error quotes it: cut short when it is long."""
    return repr(value) if len(value) <= 80 else repr(value[:60]) + f"… ({len(value)} characters)"


def _a_ruleset_name(value: str) -> str:
    # Records and sessions name a ruleset of variants/, never a path: they travel, paths should not.
    if not is_ruleset_name(value):
        raise ValueError(f"{_shown(value)} is not a ruleset name (lower-case words joined by hyphens, such as "
                         f"'original', at most {MAX_NAME} characters); a record cannot point at a file")
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


def family_dir() -> Path:
    """The folder of the rule files of Schachett's family (Schafkopf, Euchre, Whist, Hearts ...)."""
    return variants_dir() / "family"


def ruleset_path(name: str, near: Path | None = None) -> Path:
    """The rule file for a ruleset name, looked up beside ``near`` and then in ``variants/``.

    Names are plain words with hyphens, so a rule file can never reach a
    path outside these folders; a rule file there that is a link to a file
    elsewhere is refused too.

    >>> ruleset_path("original").name
    'original.schachett'
    >>> ruleset_path("../etc/passwd")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.RecordError: '../etc/passwd' is not a ruleset name: a ruleset is named in lower-case words joined by hyphens, such as 'original' or 'ai-reconstruction', at most 64 characters
    """
    if not is_ruleset_name(name):
        raise RecordError(f"{_shown(name)} is not a ruleset name: a ruleset is named in lower-case words joined by "
                          f"hyphens, such as 'original' or 'ai-reconstruction', at most {MAX_NAME} characters")
    folders = ([near] if near is not None else []) + [variants_dir(), family_dir()]
    for folder in folders:
        candidate = folder / f"{name}{RULE_SUFFIX}"
        if candidate.is_file():
            if candidate.resolve().parent != folder.resolve():
                raise RecordError(f"{candidate}: this rule file is a link to {candidate.resolve().parent}, outside "
                                  f"its folder; a ruleset named {name!r} must be a file of {folder} itself")
            return candidate
    return folders[-2] / f"{name}{RULE_SUFFIX}"


def schachett_rulesets() -> list[str]:
    """The names of Schachett's own rule files (``variants/``), sorted."""
    return sorted(p.stem for p in variants_dir().glob(f"*{RULE_SUFFIX}"))


def family_rulesets() -> list[str]:
    """The names of the family's rule files (``variants/family/``), sorted."""
    return sorted(p.stem for p in family_dir().glob(f"*{RULE_SUFFIX}"))


def known_rulesets() -> list[str]:
    """The names of every rule file: Schachett's (``variants/``), then the family's (``variants/family/``)."""
    return schachett_rulesets() + family_rulesets()
