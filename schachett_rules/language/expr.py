"""The arithmetic of clauses: integers, + − × ÷, rounding, named quantities.

Expressions are IR trees (:mod:`schachett_rules.language.ir`) evaluated here with exact
fractions; nothing is ever handed to Python's ``eval``.

>>> from schachett_rules.language.syntax import parse_ruleset
>>> rs = parse_ruleset('ruleset x king m [§7 printed] { when: taken by opponent scores: taker '
...                    'first: 100 + 6 * remaining later: 6 * remaining }')
>>> king = rs.statements[0].clause
>>> evaluate(king.first, {"remaining": 13})
Fraction(178, 1)
>>> render(king.first)
'100 + 6 * remaining'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from . import ir
from ..errors import SchachettError


def _round_half_up(x: Fraction) -> Fraction:
    return Fraction(math.floor(x + Fraction(1, 2)))


def _round_half_even(x: Fraction) -> Fraction:
    return Fraction(round(x))


FUNCTIONS: dict[str, tuple[Callable[..., Fraction], int, str]] = {
    "round_half_up": (_round_half_up, 1, "rounds to the nearest whole number, halves up (30.5 → 31)"),
    "round_half_even": (_round_half_even, 1, "rounds to the nearest whole number, halves to the even one"),
    "floor": (lambda x: Fraction(math.floor(x)), 1, "rounds down"),
    "ceil": (lambda x: Fraction(math.ceil(x)), 1, "rounds up"),
    "min": (lambda *xs: min(xs), -2, "the smallest of its arguments"),
    "max": (lambda *xs: max(xs), -2, "the largest of its arguments"),
    "if": (lambda c, a, b: a if c else b, 3, "its second argument where the first is not 0 (a comparison that "
                                              "holds), else its third"),
}

COMPARISONS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
               ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2} | {op: 0 for op in COMPARISONS}


class ExprError(SchachettError):
    """An expression that names an unknown quantity or function, or divides by zero."""


def _children(expr) -> tuple:
    if isinstance(expr, ir.BinOp):
        return (expr.left, expr.right)
    if isinstance(expr, ir.Neg):
        return (expr.operand,)
    if isinstance(expr, ir.Call):
        return expr.args
    return ()


def fold(expr: ir.Expr, combine: Callable):
    """``combine(node, values of its operands)`` applied bottom-up, without recursion.

    Every walk over an expression goes through here, so an expression nested
    however deep (a hand-built IR, say) never exhausts Python's stack.

    >>> fold(ir.BinOp(op="+", left=ir.Num(value=1), right=ir.Num(value=2)), lambda n, xs: len(xs))
    2
    """
    stack: list = [(expr, False)]
    values: list = []
    while stack:
        node, ready = stack.pop()
        kids = _children(node)
        if ready or not kids:
            if kids:
                args = values[len(values) - len(kids):]
                del values[len(values) - len(kids):]
            else:
                args = []
            values.append(combine(node, args))
            continue
        stack.append((node, True))
        stack.extend((k, False) for k in reversed(kids))
    return values[0]


def nodes(expr: ir.Expr) -> list:
    """Every node of an expression, the expression first (without recursion)."""
    out, todo = [], [expr]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(reversed(_children(node)))
    return out


def _where(node) -> str:
    at = getattr(node, "at", None)
    return f" (line {at.line}, column {at.column})" if at is not None else ""


def _unknown_function(node: ir.Call) -> ExprError:
    return ExprError(f"unknown function {node.fn!r}{_where(node)}; the functions are {', '.join(FUNCTIONS)}")


def evaluate(expr: ir.Expr, env: dict[str, int | Fraction]) -> Fraction:
    """The exact value of an expression, given the named quantities.

    >>> e = ir.BinOp(op="/", left=ir.Name(name="winner"), right=ir.Num(value=3))
    >>> evaluate(e, {"winner": 10})
    Fraction(10, 3)
    """
    entry = _COMPILED.get(id(expr))
    if entry is None or entry[0] is not expr:
        # an expression of a rule file is worked out at every game's end (a tree search plays thousands of
        # games a decision), so it is turned into nested functions once and those are called
        if len(_COMPILED) >= 4096:        # expressions made by the thousand (a fuzzer's) are not all kept
            _COMPILED.clear()
        entry = _COMPILED[id(expr)] = (expr, fold(expr, _compile))
    return Fraction(entry[1](env))


# the expressions compiled so far, by identity (each kept with its function: the rule files hold few)
_COMPILED: dict[int, tuple] = {}


def _compile(node, fs: list) -> Callable[[dict], int | Fraction]:
    """One node of an expression as a function of the named quantities, from its operands' functions. Whole
    numbers stay ints (a Fraction's arithmetic and comparisons cost ten times an int's) and a division makes
    a Fraction, so every value is exact."""
    if isinstance(node, ir.Num):
        value = node.value
        return lambda env: value
    if isinstance(node, ir.Name):
        name = node.name

        def quantity(env):
            if name not in env:
                raise ExprError(f"unknown quantity {name!r}; known here: {', '.join(sorted(env)) or 'none'}")
            value = env[name]
            return value if type(value) is int else Fraction(value)
        return quantity
    if isinstance(node, ir.Neg):
        inner = fs[0]
        return lambda env: -inner(env)
    if isinstance(node, ir.BinOp):
        a, b = fs
        op = node.op
        if op in COMPARISONS:                 # a comparison is 1 where it holds, else 0
            holds = COMPARISONS[op]
            return lambda env: int(holds(a(env), b(env)))
        if op == "+":
            return lambda env: a(env) + b(env)
        if op == "-":
            return lambda env: a(env) - b(env)
        if op == "*":
            return lambda env: a(env) * b(env)

        def divide(env):
            x, y = a(env), b(env)
            if y == 0:
                raise ExprError(f"division by zero in {render(node)}")
            return Fraction(x) / y
        return divide
    if isinstance(node, ir.Call):
        if node.fn not in FUNCTIONS:
            raise _unknown_function(node)
        fn = FUNCTIONS[node.fn][0]
        return lambda env: fn(*(f(env) for f in fs))
    raise ExprError(f"not an expression: {node!r}")


def problems_at(expr: ir.Expr, allowed: set[str]) -> list[tuple[str, ir.Pos | None]]:
    """What is wrong with an expression where ``allowed`` names are known, each with where it is."""
    out: list[tuple[str, ir.Pos | None]] = []
    for node in nodes(expr):
        if isinstance(node, ir.Name) and node.name not in allowed:
            out.append((f"unknown quantity {node.name!r}; here you may use {', '.join(sorted(allowed)) or 'numbers only'}",
                        node.at))
        elif isinstance(node, ir.Call):
            if node.fn not in FUNCTIONS:
                out.append((f"unknown function {node.fn!r}; the functions are {', '.join(FUNCTIONS)}", node.at))
                continue
            arity = FUNCTIONS[node.fn][1]
            n = len(node.args)
            if (arity > 0 and n != arity) or (arity < 0 and n < -arity):
                want = f"{arity}" if arity > 0 else f"at least {-arity}"
                out.append((f"{node.fn} takes {want} argument{'s' if abs(arity) != 1 else ''}, not {n}", node.at))
    return out


def problems(expr: ir.Expr, allowed: set[str]) -> list[str]:
    """What is wrong with an expression in a context that knows ``allowed`` names.

    >>> problems(ir.Call(fn="sqrt", args=(ir.Num(value=4),)), {"remaining"})
    ["unknown function 'sqrt'; the functions are round_half_up, round_half_even, floor, ceil, min, max, if"]
    """
    return [message for message, _ in problems_at(expr, allowed)]


_ATOMIC = 4  # numbers, names and calls never need brackets


def render(expr: ir.Expr, parent: int = 0) -> str:
    """The expression as rule text, with only the brackets it needs.

    >>> render(ir.BinOp(op="*", left=ir.BinOp(op="+", left=ir.Num(value=1), right=ir.Num(value=2)), right=ir.Num(value=3)))
    '(1 + 2) * 3'
    """
    def combine(node, xs):
        if isinstance(node, ir.Num):
            return str(node.value), _ATOMIC
        if isinstance(node, ir.Name):
            return node.name, _ATOMIC
        if isinstance(node, ir.Call):
            return f"{node.fn}({', '.join(text for text, _ in xs)})", _ATOMIC
        if isinstance(node, ir.Neg):
            text, prec = xs[0]
            # a negation is never bracketed itself; its operand is, unless it binds as tightly
            return "-" + (f"({text})" if prec < 3 else text), _ATOMIC
        prec = PRECEDENCE[node.op]
        (lt, lp), (rt, rp) = xs
        # Left-associative: the right operand needs brackets at equal precedence; comparisons do not chain.
        left = f"({lt})" if lp < prec or (prec == 0 and lp == 0) else lt
        right = f"({rt})" if rp < prec + 1 else rt
        return f"{left} {node.op} {right}", prec
    text, prec = fold(expr, combine)
    return f"({text})" if prec < parent else text


_MANY: dict = {}                 # (the expression as text, the quantities' values) -> its exact value
_MANY_LIMIT = 200_000


def evaluate_arrays(expr: ir.Expr, env: dict):
    """An expression's exact values over numpy arrays of integers, as numerator and denominator arrays.

    Each distinct combination of the quantities is computed once by :func:`evaluate` (the one arithmetic of
    the language) and kept, so the batch play-outs settle thousands of games with one call and a long run
    pays for each score only the first time it occurs.

    >>> import numpy as np
    >>> from schachett_rules.language.syntax import parse_ruleset
    >>> amount = parse_ruleset('ruleset x settlement [§12 printed] { unit "Pfg" '
    ...                        'amount: round_half_up((winner - loser) / 4) per player }').statements[0].clause.amount
    >>> num, den = evaluate_arrays(amount, {"winner": np.array([190, 10]), "loser": np.array([68, 8])})
    >>> num.tolist(), den.tolist()
    ([31, 1], [1, 1])
    """
    import numpy as np

    names = sorted(env)
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values())) if env else ()
    if not names:
        value = evaluate(expr, {})
        return np.full(shape, value.numerator, dtype=np.int64), np.full(shape, value.denominator, dtype=np.int64)
    columns = np.stack([np.broadcast_to(np.asarray(env[n], dtype=np.int64), shape).ravel() for n in names], axis=1)
    rows, inverse = np.unique(columns, axis=0, return_inverse=True)
    text = render(expr)
    if len(_MANY) > _MANY_LIMIT:
        _MANY.clear()
    nums, dens = [], []
    for row in rows.tolist():
        key = (text, tuple(row))
        value = _MANY.get(key)
        if value is None:
            value = _MANY[key] = evaluate(expr, dict(zip(names, row)))
        nums.append(value.numerator)
        dens.append(value.denominator)
    index = inverse.reshape(-1)
    return (np.array(nums, dtype=np.int64)[index].reshape(shape), np.array(dens, dtype=np.int64)[index].reshape(shape))
