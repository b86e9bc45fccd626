"""Semantic checks on a resolved ruleset, before it is compiled.

These are the checks that need no tables: every citation names a section of
the manual, every required topic has a clause, expressions only use the
quantities their clause offers. The compiler (:mod:`.compiler`) then checks
what needs the deck: unknown cards and faces, rankings, follow tiers that
could leave a hand without a legal card.
"""

from __future__ import annotations

from ..language import ir
from ..errors import RuleCheckError, SchachettError
from ..language.expr import problems_at
from .grades import graded_rules, surer_than_its_parts
from .loader import Resolved
from .manual import Manual, ManualError, load_manual

REQUIRED = ("deck", "seats", "parties", "deal", "lead first", "lead next", "ranking", "capture",
            "points", "settlement")

# what a game's end offers to the expressions that score it (kernel.scoring.game_facts works them out)
GAME_NAMES = {"points", "tricks", "declarer_points", "declarer_tricks", "defender_points", "defender_tricks",
              "max_points", "all_points", "alone", "runners"}

EXPRESSION_NAMES = {
    "points": {"value"},
    "king": {"remaining", "trick"},
    "settlement": {"winner", "loser"} | GAME_NAMES,
    "game points": GAME_NAMES,
    "value": set(),
}


class RuleCheckErrors(RuleCheckError):
    """Several semantic errors at once; each is a paragraph of its own."""

    def __init__(self, errors: list[RuleCheckError]):
        self.errors = errors
        SchachettError.__init__(self, "\n\n".join(e.message for e in errors))
        first = errors[0]
        self.file, self.line, self.column, self.clause = first.file, first.line, first.column, first.clause


def _where(resolved: Resolved, eff_or_node, file: str | None = None):
    node = getattr(eff_or_node, "clause", eff_or_node)
    at = getattr(node, "at", None)
    f = file if file is not None else getattr(getattr(eff_or_node, "origin", None), "file", resolved.file)
    return f, (at.line if at else 0), (at.column if at else 0)


def _cite_problems(manual: Manual, basis: ir.Basis) -> list[str]:
    out = []
    for c in basis.cites:
        try:
            manual.resolve(c)
        except ManualError as err:
            out.append(err.message)
    return out


def _walk_exprs(clause) -> list[tuple[str, ir.Expr]]:
    if isinstance(clause, ir.Points):
        return [("points", e.points) for e in clause.entries]
    if isinstance(clause, ir.KingEvent):
        return [("king", clause.first), ("king", clause.later)]
    if isinstance(clause, ir.Settlement):
        return [("settlement", clause.amount)] + ([("settlement", clause.wins)] if clause.wins is not None else [])
    if isinstance(clause, ir.GamePoints):
        return [("game points", e) for e in (clause.declarer, clause.others, clause.each) if e is not None]
    if isinstance(clause, ir.Value):
        return [("value", clause.amount)]
    return []


def value_names(resolved: Resolved) -> set[str]:
    """The names the value clauses give, in the ruleset and in its contracts (a settlement may use them)."""
    names = {e.clause.name for e in resolved.clauses if isinstance(e.clause, ir.Value)}
    for contract in resolved.contracts:
        names |= {c.name for c in contract.clauses if isinstance(c, ir.Value)}
    return names


def check_clause(resolved: Resolved, clause, file: str, label: str, manual: Manual) -> list[RuleCheckError]:
    """Problems of one clause that need neither the deck nor other clauses."""
    errors: list[RuleCheckError] = []
    at = clause.basis.at or clause.at
    line, col = (at.line, at.column) if at else (0, 0)
    for msg in _cite_problems(manual, clause.basis):
        errors.append(RuleCheckError(msg, file, line, col, label))
    why = surer_than_its_parts(clause.basis, [(f"rule {r.taker} takes {r.direction}", b) for r, b in graded_rules(clause)])
    if why is not None:
        errors.append(RuleCheckError(why, file, line, col, label))
    for rule, _ in graded_rules(clause):
        if rule.basis is None:
            continue
        at = rule.basis.at or rule.at or clause.at
        for msg in _cite_problems(manual, rule.basis):
            errors.append(RuleCheckError(msg, file, at.line if at else 0, at.column if at else 0,
                                         f"{label}, rule {rule.taker} takes {rule.direction}"))
    extra = value_names(resolved) if isinstance(clause, (ir.Settlement, ir.GamePoints)) else set()
    for context, e in _walk_exprs(clause):
        for msg, where in problems_at(e, EXPRESSION_NAMES[context] | extra):
            # the error points at the name or call itself, falling back on the clause
            at = where or clause.at
            line, col = (at.line, at.column) if at else (0, 0)
            errors.append(RuleCheckError(msg, file, line, col, label))
    return errors


def check(resolved: Resolved, manual: Manual | None = None) -> list[RuleCheckError]:
    """Every semantic problem found without compiling; empty when the ruleset is sound."""
    manual = manual or load_manual()
    errors: list[RuleCheckError] = []
    for eff in resolved.clauses:
        label = f"{eff.key} [{', '.join(eff.clause.basis.cites)}]"
        errors += check_clause(resolved, eff.clause, eff.origin.file, label, manual)
    for chosen in resolved.lacunae:
        lac = chosen.lacuna
        f = chosen.file
        for msg in _cite_problems(manual, lac.basis):
            errors.append(RuleCheckError(msg, f, *(lac.at.line, lac.at.column) if lac.at else (0, 0), f"lacuna {lac.name}"))
        for ev in lac.evidence:
            for msg in _cite_problems(manual, ev.basis):
                errors.append(RuleCheckError(msg, f, ev.at.line if ev.at else 0, ev.at.column if ev.at else 0,
                                             f"lacuna {lac.name}, evidence"))
        for opt in lac.options:
            label = f"lacuna {lac.name}, option {opt.name}"
            for msg in _cite_problems(manual, opt.basis):
                errors.append(RuleCheckError(msg, f, opt.at.line if opt.at else 0, opt.at.column if opt.at else 0, label))
            if opt.name == chosen.option:
                continue  # the chosen option's clauses are checked as effective clauses above
            for c in opt.clauses:
                filled = c if c.basis is not None else c.model_copy(update={"basis": opt.basis})
                errors += check_clause(resolved, filled, f, label, manual)
    present = {e.key for e in resolved.clauses}
    for contract in resolved.contracts:
        label = f"contract {contract.name}"
        for msg in _cite_problems(manual, contract.basis):
            at = contract.at
            errors.append(RuleCheckError(msg, resolved.file, at.line if at else 0, at.column if at else 0, label))
        why = surer_than_its_parts(contract.basis, [(ir.clause_key(c), c.basis) for c in contract.clauses])
        if why is not None:
            at = contract.at
            errors.append(RuleCheckError(why, resolved.file, at.line if at else 0, at.column if at else 0, label))
        for c in contract.clauses:
            errors += check_clause(resolved, c, resolved.file, f"{label}, {ir.clause_key(c)}", manual)
    # a ruleset of contracts may leave the clauses of play to its contracts, each of which must then say them
    if resolved.contracts:
        for contract in resolved.contracts:
            played = {e.key for e in resolved.for_contract(contract.name).clauses}
            lacking = [key for key in REQUIRED if key not in played
                       and not (key == "settlement" and "game points" in played)
                       and not (key == "parties" and "partner" in played)]
            if lacking:
                at = contract.at
                errors.append(RuleCheckError(f"contract {contract.name} is played without {', '.join(lacking)} "
                                             f"clause{'s' if len(lacking) > 1 else ''}: give "
                                             f"{'them' if len(lacking) > 1 else 'it'} in the contract or in the "
                                             f"ruleset", resolved.file, at.line if at else 0,
                                             at.column if at else 0, f"contract {contract.name}"))
        present |= set(REQUIRED)
    if "game points" in present:
        present.add("settlement")          # a game played for game points needs no money
    missing = [key for key in REQUIRED if key not in present]
    if missing:
        errors.append(RuleCheckError(f"the ruleset has no {', '.join(missing)} clause{'s' if len(missing) > 1 else ''}; "
                                     f"every ruleset needs {'them' if len(missing) > 1 else 'one'} (inherited, given "
                                     f"in the file, or from a lacuna)", resolved.file, 1, 1, f"ruleset {resolved.name}"))
    events = [e for e in resolved.clauses if isinstance(e.clause, ir.KingEvent)]
    if events and "king order" not in present:
        errors.append(RuleCheckError("the ruleset scores King events but has no `king order` clause saying which "
                                     "King counts as first", resolved.file, 1, 1, "king order"))
    if events and "remaining" not in present:
        errors.append(RuleCheckError("the ruleset scores King events but has no `remaining` clause saying what "
                                     "'remaining' counts", resolved.file, 1, 1, "remaining"))
    whens = {}
    for e in events:
        if e.clause.when in whens:
            errors.append(RuleCheckError(f"King events {whens[e.clause.when]} and {e.clause.name} both happen when the King "
                                         f"is {e.clause.when!r}; a King can meet only one fate",
                                         *_where(resolved, e), e.key))
        whens[e.clause.when] = e.clause.name
    return errors


def raise_for(errors: list[RuleCheckError]) -> None:
    """Raise the errors as one exception, if there are any."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise RuleCheckErrors(errors)
