"""Loading rulesets: files, inheritance, overrides, drops and lacuna choices.

A ruleset may ``extend`` another. The child inherits every clause, lacuna and
choice of its parent; it may ``override`` a clause (same key), ``drop`` clauses
by key or section or drop a whole lacuna, add lacunae, and ``choose`` other
options. The result is a :class:`Resolved` ruleset: the effective clauses, each
with its provenance, and the lacunae with the option each plays.

>>> r = load("original")
>>> r.clause("seats").count
4
>>> r.choice("deal")
'kings-face-up'
>>> load("original", {"§4": "random"}).choice("deal")
'random'
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..language import ir
from .. import paths
from ..errors import RecordError, RuleCheckError, SchachettError
from ..language.syntax import parse_ruleset


class Origin(BaseModel):
    """Where an effective clause comes from."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: str
    file: str
    lacuna: str | None = None
    option: str | None = None
    contract: str | None = None


class Effective(BaseModel):
    """A clause in play, its basis filled in, with its origin."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    clause: ir.Clause
    origin: Origin


class Chosen(BaseModel):
    """A lacuna and the option a ruleset plays for it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    lacuna: ir.Lacuna
    option: str
    because: str | None = None
    declared_in: str
    chosen_by: str
    file: str


class Resolved(BaseModel):
    """A ruleset with its inheritance and choices worked out."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    title: str
    file: str
    chain: tuple[str, ...]
    clauses: tuple[Effective, ...]
    lacunae: tuple[Chosen, ...]
    options: tuple[tuple[str, str], ...] = ()
    contracts: tuple[ir.Contract, ...] = ()

    def contract(self, name: str) -> ir.Contract | None:
        """A contract by name, or None."""
        return next((c for c in self.contracts if c.name == name), None)

    def for_contract(self, name: str) -> "Resolved":
        """The ruleset as it stands when contract ``name`` is played: the contract's clauses (and those of the
        contracts it is ``like``, nearest last) over the ruleset's own, each keeping where it comes from."""
        chain, current = [], self.contract(name)
        while current is not None and current.name not in [c.name for c in chain]:
            chain.append(current)
            current = self.contract(current.like) if current.like else None
        clauses = {e.key: e for e in self.clauses}
        for contract in reversed(chain):
            origin = Origin(ruleset=self.name, file=self.file, contract=contract.name)
            for c in contract.clauses:
                key = ir.clause_key(c)
                clauses[key] = Effective(key=key, clause=_fill_basis(c, contract.basis), origin=origin)
        return self.model_copy(update={"clauses": tuple(clauses.values())})

    def clause(self, key: str):
        """The effective clause with this key, or None."""
        return next((e.clause for e in self.clauses if e.key == key), None)

    def effective(self, key: str) -> Effective | None:
        """The effective clause with this key and its origin, or None."""
        return next((e for e in self.clauses if e.key == key), None)

    def of_kind(self, cls) -> list:
        """The effective clauses of one IR class, in order."""
        return [e.clause for e in self.clauses if isinstance(e.clause, cls)]

    def choice(self, lacuna: str) -> str | None:
        """The option played for a lacuna, by name."""
        return next((c.option for c in self.lacunae if c.lacuna.name == lacuna), None)

    def find_lacuna(self, ref: str) -> Chosen:
        """A lacuna by name or by section; a clear error if none or several match."""
        by_name = [c for c in self.lacunae if c.lacuna.name == ref]
        if by_name:
            return by_name[0]
        by_section = [c for c in self.lacunae if ref in c.lacuna.basis.cites[:1]]
        if len(by_section) == 1:
            return by_section[0]
        names = ", ".join(f"{c.lacuna.name} ({c.lacuna.basis.section})" for c in self.lacunae)
        if by_section:
            several = ", ".join(c.lacuna.name for c in by_section)
            raise RecordError(f"{ref} has several lacunae ({several}); name the one meant, e.g. "
                              f"--option {by_section[0].lacuna.name}=OPTION")
        raise RecordError(f"ruleset {self.name} has no lacuna {ref!r}; its lacunae are {names or 'none'}")


class _Layer:
    """The mutable state while a chain of rule files is folded together."""

    def __init__(self):
        self.plain: dict[str, Effective] = {}
        self.lacunae: dict[str, ir.Lacuna] = {}
        self.lacuna_home: dict[str, tuple[str, str]] = {}
        self.choices: dict[str, tuple[str, str | None, str, str]] = {}
        self.dropped: dict[str, tuple[str, str, int]] = {}      # lacuna -> (ruleset, file, line) that dropped it
        self.contracts: dict[str, ir.Contract] = {}
        self._keys: dict[str, tuple[ir.Lacuna, set[str]]] = {}   # lacuna -> (it, the keys its options give)

    def keys(self, name: str) -> set[str]:
        """The clause keys the options of lacuna ``name`` give (worked out once for each lacuna declared)."""
        lacuna = self.lacunae[name]
        known = self._keys.get(name)
        if known is None or known[0] is not lacuna:
            known = self._keys[name] = (lacuna, _lacuna_keys(lacuna))
        return known[1]

    def owner(self, key: str) -> str | None:
        """The lacuna whose options give the clause ``key``, or None."""
        return next((n for n in self.lacunae if key in self.keys(n)), None)


def _err(file: str, node, message: str, clause: str = "") -> RuleCheckError:
    at = getattr(node, "at", None)
    return RuleCheckError(message, file, at.line if at else 0, at.column if at else 0, clause)


def _fill_basis(clause, basis: ir.Basis):
    """A clause of an option takes the option's basis, or its grade when it cites on its own."""
    if clause.basis is None:
        return clause.model_copy(update={"basis": basis})
    if clause.basis.grade is None:  # every effective clause has a grade; later stages count on it
        return clause.model_copy(update={"basis": clause.basis.model_copy(update={"grade": basis.grade})})
    return clause


def _lacuna_keys(lacuna: ir.Lacuna) -> set[str]:
    return {ir.clause_key(c) for o in lacuna.options for c in o.clauses}


def read_file(path: Path) -> ir.Ruleset:
    """Parse one rule file (no inheritance)."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark from some editors is not an error
    except FileNotFoundError:
        raise RecordError(f"{path}: no such rule file; the rulesets here are {', '.join(paths.known_rulesets())}") from None
    except UnicodeDecodeError as err:
        data = err.object
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise RuleCheckError(f"not a text file in UTF-8: byte {data[err.start]:#04x} cannot start or continue a "
                             f"character ({err.reason}); save the file as UTF-8", str(path), line, column,
                             "the file") from None
    except OSError as err:
        raise RecordError(f"{path}: cannot be read ({err.strerror})") from None
    rs = parse_ruleset(text, str(path))
    if not paths.is_ruleset_name(rs.name):
        # records and sessions name their ruleset, so the name must be one they can carry
        raise RuleCheckError(f"ruleset {paths._shown(rs.name)}: a ruleset's name is lower-case words joined by "
                             f"hyphens, at most {paths.MAX_NAME} characters", str(path), 1, 1, "ruleset")
    return rs


def _chain(start: ir.Ruleset, path: Path) -> list[ir.Ruleset]:
    chain, seen = [start], [start.name]
    current, folder = start, path.parent
    while current.extends:
        try:
            parent_path = paths.ruleset_path(current.extends, folder)
        except RecordError as err:     # not a name, too long, or a link out of the folder
            raise RuleCheckError(f"ruleset {current.name} extends: {err.message}", current.file, 1, 1,
                                 "extends") from None
        if current.extends in seen:
            loop = " → ".join(seen + [current.extends])
            raise RuleCheckError(f"ruleset {current.name} extends {current.extends}, which leads back to it "
                                 f"({loop}); inheritance must not loop", current.file, 1, 1, "extends")
        if not parent_path.is_file():
            raise RuleCheckError(f"ruleset {current.name} extends {current.extends!r}, but there is no rule file "
                                 f"{parent_path.name} beside it or in variants/", current.file, 1, 1, "extends")
        parent = read_file(parent_path)
        if parent.name != current.extends:
            raise RuleCheckError(f"{parent_path.name} declares ruleset {parent.name!r}; a rule file's ruleset "
                                 f"must be named like its file", parent.file, 1, 1, "ruleset")
        chain.append(parent)
        seen.append(parent.name)
        current, folder = parent, parent_path.parent
    return list(reversed(chain))


def _apply(layer: _Layer, rs: ir.Ruleset, has_parent: bool) -> None:
    origin = Origin(ruleset=rs.name, file=rs.file)
    local_keys: dict[str, object] = {}           # clause key -> the statement of this file that gave it
    chosen_here: dict[str, ir.Choose] = {}      # a child may choose again what its parent chose, a file only once
    for st in rs.statements:
        if isinstance(st, ir.ClauseStatement):
            c = st.clause
            key = ir.clause_key(c)
            if c.basis is None or c.basis.grade is None:
                raise _err(rs.file, c, _basis_missing(c), key)
            owner = layer.owner(key)
            if key in local_keys:
                raise _err(rs.file, c, f"{key} is given twice in this file{_line_of(local_keys[key])}", key)
            if owner:
                raise _err(rs.file, c, f"{key} is already settled by lacuna {owner}; choose one of its options, "
                           f"or `drop lacuna {owner}` first", key)
            if key in layer.plain:
                raise _err(rs.file, c, f"{key} is already given by ruleset {layer.plain[key].origin.ruleset}; "
                           f"write `override {key} …` to replace it", key)
            layer.plain[key] = Effective(key=key, clause=c, origin=origin)
            local_keys[key] = c
        elif isinstance(st, ir.Override):
            c = st.clause
            key = ir.clause_key(c)
            if c.basis is None or c.basis.grade is None:
                raise _err(rs.file, c, "an override " + _basis_missing(c).removeprefix("every clause "), key)
            if not has_parent:
                raise _err(rs.file, st, f"override {key}: this ruleset extends nothing, so there is nothing to override", key)
            owner = layer.owner(key)
            if owner:
                raise _err(rs.file, st, f"{key} comes from lacuna {owner}; choose one of its options, or "
                           f"`drop lacuna {owner}` and give {key} anew", key)
            if key in local_keys:
                raise _err(rs.file, st, f"override {key}: {key} is given twice in this file{_line_of(local_keys[key])}; "
                           f"keep one", key)
            if key not in layer.plain:
                raise _err(rs.file, st, f"override of {key}, which the parent ruleset does not have", key)
            layer.plain[key] = Effective(key=key, clause=c, origin=origin)
            local_keys[key] = st
        elif isinstance(st, ir.Lacuna):
            if st.name in layer.lacunae:
                raise _err(rs.file, st, f"lacuna {st.name} is already declared (in {layer.lacuna_home[st.name][0]})", "lacuna")
            names = [o.name for o in st.options]
            if len(set(names)) != len(names):
                raise _err(rs.file, st, f"lacuna {st.name} has two options of the same name", "lacuna")
            for o in st.options:
                if o.basis.grade is None:
                    raise _err(rs.file, o, f"option {o.name} of lacuna {st.name} needs a grade in its brackets", "lacuna")
                for c in o.clauses:
                    if ir.clause_key(c) in layer.plain:
                        raise _err(rs.file, c, f"option {o.name} of lacuna {st.name} gives {ir.clause_key(c)}, "
                                   f"which the ruleset already gives outside the lacuna", "lacuna")
            given = _lacuna_keys(st)
            clash = next((n for n in layer.lacunae if layer.keys(n) & given), None)
            if clash:
                raise _err(rs.file, st, f"lacunae {clash} and {st.name} both give "
                           f"{', '.join(sorted(layer.keys(clash) & given))}", "lacuna")
            layer.lacunae[st.name] = st
            layer.lacuna_home[st.name] = (rs.name, rs.file)
        elif isinstance(st, ir.Choose):
            lac = layer.lacunae.get(st.lacuna)
            if lac is None:
                raise _err(rs.file, st, f"choose {st.lacuna}: there is no such lacuna; lacunae: "
                           f"{', '.join(layer.lacunae) or 'none'}", "choose")
            if lac.option(st.option) is None:
                raise _err(rs.file, st, f"choose {st.lacuna} {st.option}: lacuna {st.lacuna} has no such option; "
                           f"its options are {', '.join(o.name for o in lac.options)}", "choose")
            if st.lacuna in chosen_here:
                first = chosen_here[st.lacuna]
                where = f" (line {first.at.line})" if first.at else ""
                raise _err(rs.file, st, f"choose {st.lacuna}: this file already chooses {first.option} for lacuna "
                           f"{st.lacuna}{where}; a lacuna is chosen once per file", "choose")
            chosen_here[st.lacuna] = st
            layer.choices[st.lacuna] = (st.option, st.because, rs.name, rs.file)
        elif isinstance(st, ir.Contract):
            if st.name in layer.contracts:
                raise _err(rs.file, st, f"contract {st.name} is declared twice; `drop contract {st.name}` first to "
                                        f"give it anew", "contract")
            for c in st.clauses:
                if c.basis is not None and c.basis.grade is None:
                    raise _err(rs.file, c, _basis_missing(c), ir.clause_key(c))
            layer.contracts[st.name] = st
        elif isinstance(st, ir.Drop):
            if not has_parent:
                raise _err(rs.file, st, "drop: this ruleset extends nothing, so there is nothing to drop", "drop")
            if st.contract:
                if st.contract not in layer.contracts:
                    raise _err(rs.file, st, f"drop contract {st.contract}: the parent has no such contract", "drop")
                del layer.contracts[st.contract]
                continue
            _drop(layer, st, rs.file, rs.name)


def _basis_missing(c) -> str:
    """What is missing from a clause's brackets, said precisely."""
    if c.basis is not None and c.basis.cites:
        return (f"every clause needs a grade after its citation: [{', '.join(c.basis.cites)}] has none; add one "
                f"of {', '.join(g.value for g in ir.Grade)}, for example [{c.basis.cites[0]} printed]")
    return ("every clause needs a citation and a grade in brackets, for example [§2 printed]; a clause without "
            "them does not compile")


def _line_of(node) -> str:
    at = getattr(node, "at", None)
    return f" (first at line {at.line})" if at else ""


def _drop(layer: _Layer, st: ir.Drop, file: str, ruleset: str = "") -> None:
    if st.lacuna:
        if st.lacuna not in layer.lacunae:
            if st.lacuna in layer.dropped:
                by, where, line = layer.dropped[st.lacuna]
                raise _err(file, st, f"drop lacuna {st.lacuna}: it is dropped already, by ruleset {by} "
                           f"({where}:{line})", "drop")
            raise _err(file, st, f"drop lacuna {st.lacuna}: the parent has no such lacuna", "drop")
        layer.dropped[st.lacuna] = (ruleset, file, st.at.line if st.at else 0)
        del layer.lacunae[st.lacuna]
        layer.choices.pop(st.lacuna, None)
        return
    if st.key:
        if st.key in layer.plain:
            del layer.plain[st.key]
            return
        owner = layer.owner(st.key)
        if owner:
            raise _err(file, st, f"drop {st.key}: it comes from lacuna {owner}; write `drop lacuna {owner}`", "drop")
        raise _err(file, st, f"drop {st.key}: the parent ruleset has no such clause", "drop")
    hits = [k for k, e in layer.plain.items() if e.clause.basis.section == st.section]
    lac_hits = [n for n, lac in layer.lacunae.items() if lac.basis.section == st.section]
    if not hits and not lac_hits:
        raise _err(file, st, f"drop {st.section}: the parent ruleset has no clause or lacuna filed under "
                   f"{st.section}", "drop")
    for k in hits:
        del layer.plain[k]
    for n in lac_hits:
        del layer.lacunae[n]
        layer.choices.pop(n, None)


def resolve(rs: ir.Ruleset, path: Path, options: dict[str, str] | None = None,
            chosen_by: str = "--option") -> Resolved:
    """Fold a parsed ruleset with its ancestors and apply option overrides."""
    chain = _chain(rs, path)
    layer = _Layer()
    for i, member in enumerate(chain):
        _apply(layer, member, has_parent=i > 0)
    choosers = {name: (opt, because, who, file) for name, (opt, because, who, file) in layer.choices.items()}
    provisional = Resolved(name=rs.name, title=rs.title, file=rs.file, chain=tuple(r.name for r in chain),
                           clauses=(), lacunae=tuple(
                               Chosen(lacuna=lac, option=lac.options[0].name, declared_in=layer.lacuna_home[n][0],
                                      chosen_by="", file=layer.lacuna_home[n][1])
                               for n, lac in layer.lacunae.items()))
    applied = []
    for ref, opt in (options or {}).items():
        target = provisional.find_lacuna(ref).lacuna
        if target.option(opt) is None:
            raise RecordError(f"{chosen_by} {ref}={opt}: lacuna {target.name} has no option {opt!r}; its options are "
                              f"{', '.join(o.name for o in target.options)}")
        choosers[target.name] = (opt, None, chosen_by, "")
        applied.append((target.name, opt))
    lacunae, clauses = [], list(layer.plain.values())
    for name, lac in layer.lacunae.items():
        if name not in choosers:
            raise RuleCheckError(f"lacuna {name} has no option chosen; add `choose {name} OPTION` "
                                 f"(options: {', '.join(o.name for o in lac.options)})",
                                 layer.lacuna_home[name][1], lac.at.line if lac.at else 0,
                                 lac.at.column if lac.at else 0, f"lacuna {name}")
        opt, because, who, file = choosers[name]
        lacunae.append(Chosen(lacuna=lac, option=opt, because=because, declared_in=layer.lacuna_home[name][0],
                              chosen_by=who, file=file or layer.lacuna_home[name][1]))
        option = lac.option(opt)
        for c in option.clauses:
            clauses.append(Effective(key=ir.clause_key(c), clause=_fill_basis(c, option.basis),
                                     origin=Origin(ruleset=layer.lacuna_home[name][0], file=layer.lacuna_home[name][1],
                                                   lacuna=name, option=opt)))
    for c in layer.contracts.values():
        if c.like and c.like not in layer.contracts:
            raise _err(rs.file, c, f"contract {c.name} is like {c.like}, which is no contract of this ruleset "
                                   f"(contracts: {', '.join(layer.contracts)})", "contract")
    return Resolved(name=rs.name, title=rs.title or (chain[-2].title if len(chain) > 1 else ""), file=rs.file,
                    chain=tuple(r.name for r in chain), clauses=tuple(clauses), lacunae=tuple(lacunae),
                    options=tuple(applied), contracts=tuple(layer.contracts.values()))


def locate(ref: str, near: Path | None = None) -> Path:
    """The rule file for a ruleset name or a path to a rule file.

    A name is looked up beside ``near`` first (the folder of a record being replayed: a record of a
    ruleset of one's own replays wherever its rule file travels with it), then in ``variants/``.
    """
    if paths.RULESET_NAME.match(ref) and not ref.endswith(paths.RULE_SUFFIX):
        path = paths.ruleset_path(ref, near)     # refuses a name too long to be a file's
        if not path.is_file():
            beside = f" (nor a file {ref}{paths.RULE_SUFFIX} in {near})" if near is not None else ""
            raise RecordError(f"there is no ruleset {ref!r}{beside}; the rulesets are "
                              f"{', '.join(paths.known_rulesets())}")
        return path
    path = Path(ref)
    try:
        found = path.is_file()
    except OSError as err:           # a name the file system refuses, e.g. too long
        raise RecordError(f"{paths._shown(ref)}: cannot be read as a rule file ({err.strerror})") from None
    if not found:
        raise RecordError(f"{paths._shown(ref)}: no such rule file (give a ruleset name such as 'original' or a path to a "
                          f"{paths.RULE_SUFFIX} file)")
    return path


def load(ref: str, options: dict[str, str] | None = None, chosen_by: str = "--option",
         near: Path | None = None) -> Resolved:
    """Load a ruleset by name or path and resolve it (no semantic checks: see :mod:`.check`).

    ``near``: a folder where a ruleset named by a record may lie (see :func:`locate`).
    """
    path = locate(ref, near)
    rs = read_file(path)
    if path.parent.resolve() in (paths.variants_dir().resolve(), paths.family_dir().resolve()) and \
            rs.name != path.stem:
        raise RuleCheckError(f"{path.name} declares ruleset {rs.name!r}; a rule file in variants/ must be named "
                             f"like its ruleset", rs.file, 1, 1, "ruleset")
    return resolve(rs, path, options, chosen_by)


def parse_option_args(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``--option`` values (``§4=random`` or ``deal=random``) as a dict.

    >>> parse_option_args(["§4=random", "ties=every-card"])
    {'§4': 'random', 'ties': 'every-card'}
    """
    out = {}
    for item in items:
        ref, sep, opt = item.partition("=")
        if not sep or not ref.strip() or not opt.strip():
            raise SchachettError(f"--option {item!r}: write LACUNA=OPTION, for example --option §4=random "
                                 f"or --option deal=random")
        out[ref.strip()] = opt.strip()
    return out
