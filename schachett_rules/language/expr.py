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
}

PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


class ExprError(SchachettError):
    """An expression that names an unknown quantity or function, or divides by zero."""


def evaluate(expr: ir.Expr, env: dict[str, int | Fraction]) -> Fraction:
    """The exact value of an expression, given the named quantities."""
    if isinstance(expr, ir.Num):
        return Fraction(expr.value)
    if isinstance(expr, ir.Name):
        if expr.name not in env:
            raise ExprError(f"unknown quantity {expr.name!r}; known here: {', '.join(sorted(env)) or 'none'}")
        return Fraction(env[expr.name])
    if isinstance(expr, ir.Neg):
        return -evaluate(expr.operand, env)
    if isinstance(expr, ir.BinOp):
        a, b = evaluate(expr.left, env), evaluate(expr.right, env)
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if expr.op == "*":
            return a * b
        if b == 0:
            raise ExprError(f"division by zero in {render(expr)}")
        return a / b
    if isinstance(expr, ir.Call):
        fn, arity, _ = FUNCTIONS[expr.fn]
        return fn(*(evaluate(a, env) for a in expr.args))
    raise ExprError(f"not an expression: {expr!r}")


def problems(expr: ir.Expr, allowed: set[str]) -> list[str]:
    """What is wrong with an expression in a context that knows ``allowed`` names.

    >>> problems(ir.Call(fn="sqrt", args=(ir.Num(value=4),)), {"remaining"})
    ["unknown function 'sqrt'; the functions are round_half_up, round_half_even, floor, ceil, min, max"]
    """
    out: list[str] = []
    if isinstance(expr, ir.Name) and expr.name not in allowed:
        out.append(f"unknown quantity {expr.name!r}; here you may use {', '.join(sorted(allowed)) or 'numbers only'}")
    elif isinstance(expr, ir.Neg):
        out += problems(expr.operand, allowed)
    elif isinstance(expr, ir.BinOp):
        out += problems(expr.left, allowed) + problems(expr.right, allowed)
    elif isinstance(expr, ir.Call):
        if expr.fn not in FUNCTIONS:
            out.append(f"unknown function {expr.fn!r}; the functions are {', '.join(FUNCTIONS)}")
        else:
            arity = FUNCTIONS[expr.fn][1]
            n = len(expr.args)
            if (arity > 0 and n != arity) or (arity < 0 and n < -arity):
                want = f"{arity}" if arity > 0 else f"at least {-arity}"
                out.append(f"{expr.fn} takes {want} argument{'s' if abs(arity) != 1 else ''}, not {n}")
        for a in expr.args:
            out += problems(a, allowed)
    return out


def render(expr: ir.Expr, parent: int = 0) -> str:
    """The expression as rule text, with only the brackets it needs.

    >>> render(ir.BinOp(op="*", left=ir.BinOp(op="+", left=ir.Num(value=1), right=ir.Num(value=2)), right=ir.Num(value=3)))
    '(1 + 2) * 3'
    """
    if isinstance(expr, ir.Num):
        return str(expr.value)
    if isinstance(expr, ir.Name):
        return expr.name
    if isinstance(expr, ir.Neg):
        return "-" + render(expr.operand, 3)
    if isinstance(expr, ir.Call):
        return f"{expr.fn}({', '.join(render(a) for a in expr.args)})"
    assert isinstance(expr, ir.BinOp)
    prec = PRECEDENCE[expr.op]
    # Left-associative: the right operand needs brackets at equal precedence.
    text = f"{render(expr.left, prec)} {expr.op} {render(expr.right, prec + 1)}"
    return f"({text})" if prec < parent else text


def evaluate_arrays(expr: ir.Expr, env: dict):
    """Evaluate an expression exactly over numpy arrays of integers, as numerator and denominator arrays.

    The same arithmetic as :func:`evaluate`, for many values at once (the batch
    play-outs settle thousands of games with one call).

    >>> import numpy as np
    >>> from schachett_rules.language.syntax import parse_ruleset
    >>> amount = parse_ruleset('ruleset x settlement [§12 printed] { unit "Pfg" '
    ...                        'amount: round_half_up((winner - loser) / 4) per player }').statements[0].clause.amount
    >>> num, den = evaluate_arrays(amount, {"winner": np.array([190, 10]), "loser": np.array([68, 8])})
    >>> num.tolist(), den.tolist()
    ([31, 1], [1, 1])
    """
    import numpy as np

    def norm(num, den):
        sign = np.where(den < 0, -1, 1)
        num, den = num * sign, den * sign
        g = np.gcd(num, den)
        g = np.where(g == 0, 1, g)
        return num // g, den // g

    def ev(e):
        if isinstance(e, ir.Num):
            return np.int64(e.value), np.int64(1)
        if isinstance(e, ir.Name):
            if e.name not in env:
                raise ExprError(f"unknown quantity {e.name!r}; known here: {', '.join(sorted(env)) or 'none'}")
            value = np.asarray(env[e.name], dtype=np.int64)
            return value, np.ones_like(value)
        if isinstance(e, ir.Neg):
            n, d = ev(e.operand)
            return -n, d
        if isinstance(e, ir.BinOp):
            (a, b), (c, d) = ev(e.left), ev(e.right)
            if e.op == "+":
                return norm(a * d + c * b, b * d)
            if e.op == "-":
                return norm(a * d - c * b, b * d)
            if e.op == "*":
                return norm(a * c, b * d)
            if np.any(c == 0):
                raise ExprError(f"division by zero in {render(e)}")
            return norm(a * d, b * c)
        assert isinstance(e, ir.Call)
        args = [ev(a) for a in e.args]
        if e.fn == "round_half_up":
            n, d = args[0]
            return (2 * n + d) // (2 * d), np.ones_like(d)
        if e.fn == "round_half_even":
            n, d = args[0]
            q, r = np.divmod(n, d)
            twice = 2 * r
            up = (twice > d) | ((twice == d) & (q % 2 == 1))
            return q + up, np.ones_like(d)
        if e.fn == "floor":
            n, d = args[0]
            return n // d, np.ones_like(d)
        if e.fn == "ceil":
            n, d = args[0]
            return -((-n) // d), np.ones_like(d)
        pick_max = e.fn == "max"
        n, d = args[0]
        for n2, d2 in args[1:]:
            second = (n2 * d > n * d2) if pick_max else (n2 * d < n * d2)
            n, d = np.where(second, n2, n), np.where(second, d2, d)
        return n, d

    num, den = ev(expr)
    # A constant amount (a flat stake) is still one value per game: broadcast it to the quantities' shape.
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values())) if env else ()
    return np.broadcast_to(num, shape).copy(), np.broadcast_to(den, shape).copy()
