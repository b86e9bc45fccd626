"""The manual, section by section, and the citations that point into it.

``manual/`` holds one Markdown file per section of the surviving manual (and
``manual/ai-reconstruction/`` one per section of the AI reconstruction). Each
file has a YAML front matter (id, title, part, pages, status, aliases,
subsections) and three parts kept apart: the printed text, the translator's
notes and our editor's notes. Rule files cite these ids: ``§3.2``,
``§4,4 (3p)``, ``p.15``, ``foreword``, or ``ai:§2`` for the AI text.

>>> m = load_manual()
>>> m.resolve("§3.2").section.title
'Following Suit and Taking Tricks'
>>> m.resolve("p.12").section.status
'missing'
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from .. import paths
from ..errors import SchachettError

HEADINGS = ("## Printed text", "## Translator's notes", "## Editor's notes")
# The family's sources are kept as our own summaries, rule by rule, never as their text: a file of
# manual/family/ says what its source rules, where the source says it, and our remarks.
FAMILY_HEADINGS = ("## The rule", "## Where the source says it", "## Editor's notes")
SOURCES = {"": "the manual", "ai": "the AI reconstruction",
           "schafkopf": "the Schafkopf article (sources/schafkopf-article-fragments.txt)",
           "wendish": "the Wendish Schafkopf text (sources/wendish-schafkopf.txt)",
           "euchre5": "the five-hand call-card euchre (sources/five-hand-call-card-euchre.nl.txt)",
           "hearts": "the rules of Hearts as the comparison games play it",
           "whist": "the rules of Whist as commonly published",
           "euchre": "the rules of four-hand Euchre as the comparison games play it"}
SOURCE_DIRS = {"": ".", "ai": "ai-reconstruction", "schafkopf": "family/schafkopf", "wendish": "family/wendish",
               "euchre5": "family/five-hand-euchre", "hearts": "family/hearts", "whist": "family/whist",
               "euchre": "family/euchre"}
FAMILY = tuple(k for k in SOURCES if k not in ("", "ai"))


class ManualError(SchachettError):
    """A manual file that does not follow the section format."""


class Subsection(BaseModel):
    """A numbered item within a section (``§3.2``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    title: str


class Section(BaseModel):
    """One section of a source document, as printed, with notes kept apart."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    id: str
    title: str
    part: Literal["front", "four-player", "three-player", "ai-reconstruction", "family"]
    pages: tuple[int, ...] = ()
    status: Literal["complete", "partial", "missing"]
    aliases: tuple[str, ...] = ()
    subsections: tuple[Subsection, ...] = ()
    text: str = ""
    translator_notes: str = ""
    editor_notes: str = ""
    file: str = ""

    @property
    def cite(self) -> str:
        """The citation of the whole section, with its source prefix."""
        return f"{self.source}:{self.id}" if self.source else self.id

    @property
    def slug(self) -> str:
        """A file-name friendly form of the id (``§4,4 (3p)`` → ``s4-4-3p``)."""
        return slugify(self.cite)

    def subsection_text(self, sub_id: str) -> str:
        """The printed text under one subsection's heading."""
        pattern = re.compile(rf"^### {re.escape(sub_id)}\b.*?$(.*?)(?=^### |\Z)", re.S | re.M)
        found = pattern.search(self.text)
        return found.group(1).strip() if found else ""


class Resolved(BaseModel):
    """What a citation points at: a section and perhaps a subsection."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cite: str
    section: Section
    subsection: Subsection | None = None

    @property
    def missing(self) -> bool:
        """Whether the cited text is lost."""
        return self.section.status == "missing"


def slugify(cite: str) -> str:
    """A citation as a file-name friendly slug.

    >>> slugify("§4,4 (3p)"), slugify("§3.2"), slugify("ai:§2"), slugify("p.15")
    ('s4-4-3p', 's3-2', 'ai-s2', 'p-15')
    """
    s = cite.replace("§", "s").lower()
    s = re.sub(r"[^a-z0-9]+", "-", s)
    return s.strip("-")


def normalise_cite(cite: str) -> str:
    """A citation with spacing made canonical (``§4,4(3p)`` → ``§4,4 (3p)``).

    >>> normalise_cite("§4,4(3p)")
    '§4,4 (3p)'
    """
    c = " ".join(cite.split())
    return re.sub(r"\s*\(3p\)$", " (3p)", c)


def parse_section(path: Path, source: str = "") -> Section:
    """Read one section file, strictly: front matter, then the three headed parts."""
    raw = path.read_text(encoding="utf-8")
    where = f"{path}"
    if not raw.startswith("---\n"):
        raise ManualError(f"{where}: a manual file starts with a '---' line and its YAML front matter")
    try:
        _, front, body = raw.split("---\n", 2)
    except ValueError:
        raise ManualError(f"{where}: the front matter is not closed by a '---' line") from None
    try:
        meta = yaml.safe_load(front) or {}
    except yaml.YAMLError as err:
        raise ManualError(f"{where}: the front matter is not valid YAML ({err})") from None
    headings = FAMILY_HEADINGS if source in FAMILY else HEADINGS
    positions = [body.find(f"\n{h}\n") for h in headings]
    if any(p < 0 for p in positions) or positions != sorted(positions):
        raise ManualError(f"{where}: the body must have the headings {', '.join(headings)}, once each and in that order")
    parts = []
    for i, start in enumerate(positions):
        end = positions[i + 1] if i + 1 < len(positions) else len(body)
        parts.append(body[start + len(headings[i]) + 2:end].strip())
    try:
        section = Section(source=source, text=parts[0], translator_notes=parts[1], editor_notes=parts[2],
                          file=str(path), **meta)
    except ValidationError as err:
        first = err.errors()[0]
        raise ManualError(f"{where}: front matter field {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    headed = re.findall(r"^### (\S+(?: \(3p\))?)", section.text, re.M)
    declared = [s.id for s in section.subsections]
    if headed != declared:
        raise ManualError(f"{where}: the subsections in the front matter ({', '.join(declared) or 'none'}) "
                          f"do not match the ### headings of the printed text ({', '.join(headed) or 'none'})")
    return section


class Manual:
    """All section files, indexed by every id, alias and page they answer to."""

    def __init__(self, sections: list[Section]):
        self.sections = sections
        self._index: dict[str, tuple[Section, Subsection | None]] = {}
        self._pages: dict[tuple[str, int], list[Section]] = {}
        self._cites: dict[str, Resolved | str] = {}     # citation -> what it points at, or why it points nowhere
        for sec in sections:
            prefix = f"{sec.source}:" if sec.source else ""
            keys = [(sec.id, None)] + [(a, None) for a in sec.aliases] + [(s.id, s) for s in sec.subsections]
            for key, sub in keys:
                full = prefix + normalise_cite(key)
                if full in self._index:
                    other = self._index[full][0]
                    raise ManualError(f"{sec.file}: the id {full!r} is also used by {other.file}")
                self._index[full] = (sec, sub)
            for page in sec.pages:
                self._pages.setdefault((sec.source, page), []).append(sec)

    def resolve(self, cite: str) -> Resolved:
        """The section a citation points at; :class:`ManualError` if there is none."""
        # every check of a ruleset resolves the same citations again; the manual does not change
        known = self._cites.get(cite)
        if known is None:
            try:
                known = self._resolve(cite)
            except ManualError as err:
                known = err.message
            self._cites[cite] = known
        if isinstance(known, str):
            raise ManualError(known)
        return known

    def _resolve(self, cite: str) -> Resolved:
        c = normalise_cite(cite)
        source, _, ref = c.rpartition(":") if re.match(r"^[a-z][a-z0-9]*:", c) else ("", "", c)
        if source and source not in SOURCES:
            raise ManualError(f"citation {cite!r} names an unknown source {source!r}; known sources: "
                              + ", ".join(f"{k}: ({v})" if k else f"none ({v})" for k, v in SOURCES.items()))
        hit = self._index.get(c)
        if hit:
            return Resolved(cite=c, section=hit[0], subsection=hit[1])
        page = re.fullmatch(r"p\.(\d+)", ref)
        if page and (source, int(page.group(1))) in self._pages:
            return Resolved(cite=c, section=self._pages[(source, int(page.group(1)))][0])
        known = [k for k in self._index if (k.startswith(f"{source}:") if source else ":" not in k)]
        raise ManualError(f"citation {cite!r} names no section of {SOURCES[source]}; it has "
                          f"{', '.join(known[:40])}{', …' if len(known) > 40 else ''}")

    def __iter__(self):
        return iter(self.sections)

    def by_source(self, source: str = "") -> list[Section]:
        """The sections of one source, in order."""
        return [s for s in self.sections if s.source == source]


@functools.lru_cache(maxsize=4)
def load_manual(folder: Path | None = None) -> Manual:
    """Read every section file of the manual and of the other sources kept beside it."""
    root = folder or paths.manual_dir()
    sections = []
    for source, sub in SOURCE_DIRS.items():
        d = root / sub
        if not d.is_dir():
            continue
        for path in sorted(d.glob("[0-9][0-9]-*.md")):
            sections.append(parse_section(path, source))
    if not sections:
        raise ManualError(f"{root}: no manual section files (NN-name.md) found")
    return Manual(sections)
