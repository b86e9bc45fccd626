"""Hostile inputs for the command line: mutated rule files, ``extends`` chains, records, session files, flags.

Each generated :class:`Case` is one ``schachett`` invocation. :func:`run_case` runs it in this process
and judges the result the way a user would: exit code 0, 1 or 2 and nothing else; never a traceback;
an error says where (a file with line and column, a trick, a seat, a game or an option); a case built
to be wrong is refused, not accepted; and no file changes but the ones the case names as its output.

The test suite runs a seeded, bounded sample (tests/test_fuzz.py); ``benchmarks/fuzz.py`` runs
thousands and prints the figures.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.paths import home, variants_dir

RULESETS = sorted(p.stem for p in variants_dir().glob("*.schachett"))
TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|§[0-9.,]+|[A-Za-z0-9_×-]+|\S')
NUMBER = re.compile(r"(?<![A-Za-z§.])\b\d+\b")
ODD_NUMBERS = ["0", "-1", "1", "65", "999", "9223372036854775808", "99999999999999999999", "18446744073709551616"]
ODD_TEXT = ["", "§", "\"", "{", "}", "[", "]", ":", "×", "÷", "\u200b", "\x00", "é", "𝔊", "\\", "\t", "..", "-"]
LOCATION = re.compile(r"(:\d+:\d+|line \d+|trick \d+|seat \d+|game \d+|--[a-z]|'-[a-z]|\b[A-Z_]+\b|"
                      r"\.schachett|\.json|ruleset |lacuna |option |clause|record|session)", re.I)
WATCHED = ("variants", "manual", "docs", "mkdocs.yml")
PACKAGE = Path(__file__).resolve().parent.parent / "schachett_rules"


@dataclass
class Case:
    """One invocation: its kind, its arguments, what it types, and whether it is wrong by construction."""

    kind: str
    args: list[str]
    stdin: str | None = None
    must_fail: bool = False
    outputs: tuple[Path, ...] = ()
    note: str = ""


@dataclass
class Verdict:
    """What went wrong with a case (empty lists: nothing)."""

    case: Case
    exit_code: int
    problems: list[str] = field(default_factory=list)
    output: str = ""


def _texts() -> dict[str, str]:
    return {name: (variants_dir() / f"{name}.schachett").read_text(encoding="utf-8") for name in RULESETS}


TEXTS = _texts()


def _mutate_rules(text: str, rng: random.Random) -> tuple[str, bool, str]:
    """A mutated rule text, whether it is surely wrong, and what was done."""
    lines = text.split("\n")
    op = rng.choice(["delete", "duplicate", "swap", "number", "token", "odd", "truncate", "deep", "wide",
                     "choose-twice", "exposed", "function", "huge-points", "flat-stake", "long-name"])
    wrong = False
    if op == "delete" and lines:
        del lines[rng.randrange(len(lines))]
    elif op == "duplicate" and lines:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif op == "swap" and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "number":
        spots = [(i, m) for i, line in enumerate(lines) for m in NUMBER.finditer(line)]
        if spots:
            i, m = rng.choice(spots)
            lines[i] = lines[i][:m.start()] + rng.choice(ODD_NUMBERS) + lines[i][m.end():]
    elif op == "token":
        i = rng.randrange(len(lines))
        toks = TOKEN.findall(lines[i])
        if toks:
            lines[i] = lines[i].replace(rng.choice(toks), rng.choice(TOKEN.findall(text)), 1)
    elif op == "odd":
        i = rng.randrange(len(lines))
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + rng.choice(ODD_TEXT) + lines[i][at:]
    elif op == "truncate":
        return text[: rng.randrange(len(text))], False, op
    elif op in ("deep", "wide", "function", "huge-points", "flat-stake"):
        # the settlement's amount is an expression every ruleset has (or inherits)
        expr = {"deep": "-" * rng.choice([300, 600, 1200]) + "1",
                "wide": " + ".join(["1"] * rng.choice([300, 600, 2500])),
                "function": "frobnicate(winner, loser)",
                "huge-points": "winner * 9223372036854775807",
                "flat-stake": "10"}[op]
        wrong = op == "function"
        lines.append(f"override settlement [§12 design] {{\n    amount: {expr}\n    unit: Pfg\n}}")
    elif op == "choose-twice":
        chooses = [line for line in lines if line.startswith("choose ")]
        if chooses:
            lines.append(rng.choice(chooses))
            wrong = True
    elif op == "exposed":
        spots = [i for i, line in enumerate(lines) if "exposed after trick" in line]
        if spots:
            i = rng.choice(spots)
            lines[i] = re.sub(r"exposed after trick \d+", f"exposed after trick {rng.choice(['13', '99999999999999999999'])}",
                              lines[i])
            wrong = True
    elif op == "long-name":
        lines = [re.sub(r"^ruleset [a-z0-9-]+", "ruleset " + "x" * 300, line) for line in lines]
    return "\n".join(lines), wrong, op


def rule_case(rng: random.Random, folder: Path) -> list[Case]:
    """A mutated rule file, checked; if it may be sound, also sampled, replayed and simulated."""
    name = rng.choice(RULESETS)
    text, wrong, op = _mutate_rules(TEXTS[name], rng)
    path = folder / f"mutant-{rng.randrange(10**9)}.schachett"
    path.write_text(text, encoding="utf-8")
    record = folder / f"{path.stem}.json"
    cases = [Case("rule", ["check", str(path)], must_fail=wrong, note=f"{name}: {op}"),
             Case("rule", ["simulate", str(path), "--games", "20", "--workers", "1", "--no-cache", "--quiet"],
                  must_fail=wrong, note=f"{name}: {op}"),
             Case("rule", ["sample", str(path), "--seed", str(rng.randrange(100)), "--out", str(record)],
                  must_fail=wrong, outputs=(record,), note=f"{name}: {op}")]
    return cases


def extends_case(rng: random.Random, folder: Path) -> list[Case]:
    """A child rule file whose ``extends`` is hostile: a cycle, a missing or absurd parent, a doubled override."""
    tag = rng.randrange(10**9)
    a, b = folder / f"a{tag}.schachett", folder / f"b{tag}.schachett"
    form = rng.choice(["cycle", "missing", "long", "outside", "double-override", "double-drop", "self"])
    head = 'ruleset a{0} "A child" extends {1}\n'
    if form == "cycle":
        a.write_text(head.format(tag, f"b{tag}"), encoding="utf-8")
        b.write_text(f'ruleset b{tag} "B" extends a{tag}\n', encoding="utf-8")
        parent_ref = str(a)
    elif form == "missing":
        a.write_text(head.format(tag, "no-such-ruleset"), encoding="utf-8")
    elif form == "long":
        a.write_text(head.format(tag, "y" * rng.choice([255, 300, 5000])), encoding="utf-8")
    elif form == "outside":
        a.write_text(head.format(tag, rng.choice(["../../../etc/passwd", "/etc/passwd", "..", "~root"])),
                     encoding="utf-8")
    elif form == "double-override":
        a.write_text(head.format(tag, "original") + "override seats [§1 design]: 4\noverride seats [§1 design]: 4\n",
                     encoding="utf-8")
    elif form == "double-drop":
        a.write_text(head.format(tag, "eight-players") + "drop lacuna deal\n", encoding="utf-8")
    else:
        a.write_text(head.format(tag, f"a{tag}"), encoding="utf-8")
    wrong = form != "long" or True
    return [Case("extends", ["check", str(a)], must_fail=wrong, note=form),
            Case("extends", ["show", str(a)], must_fail=wrong, note=form)]


def _sampled_record(folder: Path, ruleset: str, seed: int) -> dict:
    out = folder / f"base-{ruleset}-{seed}.json"
    if not out.exists():
        CliRunner().invoke(main, ["sample", ruleset, "--seed", str(seed), "--out", str(out)])
    return json.loads(out.read_text(encoding="utf-8"))


def _mutate_json(value, rng: random.Random, depth: int = 0):
    """One random change somewhere in a JSON value."""
    if isinstance(value, dict) and value and depth < 6:
        key = rng.choice(list(value))
        if rng.random() < 0.15:
            return {k: v for k, v in value.items() if k != key}
        return {**value, key: _mutate_json(value[key], rng, depth + 1)}
    if isinstance(value, list) and value and depth < 6:
        i = rng.randrange(len(value))
        r = rng.random()
        if r < 0.15:
            return value[:i] + value[i + 1:]
        if r < 0.3:
            return value[:i] + [value[i]] + value[i:]
        return value[:i] + [_mutate_json(value[i], rng, depth + 1)] + value[i + 1:]
    return rng.choice([None, -1, 0, 999, 10**30, "", "wK", "sIV", "zz", "x" * 300, [], {}, True, 1.5,
                       "dummy", "A", {"penalty": {"seat": 9, "name": "looking-back"}}])


def record_case(rng: random.Random, folder: Path) -> list[Case]:
    """A sampled record with one change anywhere, replayed."""
    ruleset = rng.choice(RULESETS)
    rec = _sampled_record(folder, ruleset, rng.randrange(3))
    mutated = _mutate_json(rec, rng)
    path = folder / f"record-{rng.randrange(10**9)}.json"
    path.write_text(json.dumps(mutated) if rng.random() < 0.95 else json.dumps(mutated)[:-7], encoding="utf-8")
    return [Case("record", ["replay", str(path)], note=ruleset)]


def _session_file(folder: Path, ruleset: str) -> dict:
    out = folder / f"base-session-{ruleset}.json"
    if not out.exists():
        CliRunner().invoke(main, ["session", ruleset, "--cycles", "1", "--seed", "1", "--quiet", "--json", str(out)])
    return json.loads(out.read_text(encoding="utf-8"))


def session_case(rng: random.Random, folder: Path) -> list[Case]:
    """A session file with one change (or a known-wrong edit: seating, game number, round, doubled games)."""
    ruleset = rng.choice(["original", "three-player"])
    base = _session_file(folder, ruleset)
    form = rng.choice(["random", "random", "seating", "number", "round", "twice"])
    games = list(base["games"])
    wrong = True
    if form == "seating" and games:
        g = dict(games[0])
        seating = list(g["seating"])
        rng.shuffle(seating)
        if seating == g["seating"]:
            seating = seating[1:] + seating[:1]
        games[0] = {**g, "seating": seating}
        mutated = {**base, "games": games}
    elif form == "number" and games:
        games[-1] = {**games[-1], "number": 999}
        mutated = {**base, "games": games}
    elif form == "round" and games:
        games[0] = {**games[0], "round": 0}
        mutated = {**base, "games": games}
    elif form == "twice":
        mutated = {**base, "games": games + games}
    else:
        mutated, wrong = _mutate_json(base, rng), False
    path = folder / f"session-{rng.randrange(10**9)}.json"
    path.write_text(json.dumps(mutated), encoding="utf-8")
    return [Case("session", ["replay", str(path)], must_fail=wrong, note=f"{ruleset}: {form}")]


def flag_case(rng: random.Random, folder: Path) -> list[Case]:
    """A command with odd flags: huge counts, bad seats, paths that cannot be written, unknown readings."""
    ruleset = rng.choice(RULESETS)
    bad_path = rng.choice([str(folder / "nodir" / "x.json"), "/dev/full", str(folder / ("n" * 300 + ".json")),
                           str(variants_dir() / f"{ruleset}.schachett"), str(variants_dir()), str(home() / "manual")])
    choice = rng.choice([
        (["simulate", ruleset, "--games", rng.choice(["0", "-5", "abc", "99999999999999999999999999"]), "--workers", "1"], True),
        (["simulate", ruleset, "--games", "10", "--workers", "1", "--no-cache", "-q", "--json", bad_path], True),
        (["simulate", ruleset, "--games", "10", "--workers", "1", "--no-cache", "-q", "--plot", bad_path], True),
        (["simulate", ruleset, "--bots", rng.choice(["nobot", "mc,mc,mc,mc,mc,mc,mc,mc,mc", ",", "random;x"]),
          "--games", "10", "--workers", "1"], True),
        (["simulate", ruleset, "-o", rng.choice(["x=y", "castling", "castling=nope", "=", "§99=a"]), "--games", "10",
          "--workers", "1"], True),
        (["sample", ruleset, "--dealer", rng.choice(["9", "-1", "x"]), "--out", str(folder / "s.json")], True),
        (["sample", ruleset, "--out", bad_path], True),
        (["session", ruleset, "--cycles", rng.choice(["0", "99999999999", "x"]), "-q"], True),
        (["session", ruleset, "--cycles", "1", "-q", "--json", bad_path], True),
        (["sweep", ruleset, "--lacuna", rng.choice(["nope", "castling"]), "--games",
          rng.choice(["99999999999999999999999999", "10"]), "--workers", "1"], False),
        (["compare", ruleset, rng.choice(["nope", "x" * 300, ruleset]), "--games", "10", "--workers", "1"], False),
        ([rng.choice(["check", "show", "kings", "sample"]), rng.choice(["x" * 300, "../../etc/passwd", "", "-", "nope"])], True),
        (["manual", rng.choice(["§99", "§", "x" * 300, "§3.2"])], False),
        (["site", "build", "--dir", rng.choice([str(variants_dir()), str(home() / "manual"), str(folder / "f.txt")])], True),
    ])
    args, wrong = choice
    if "--dir" in args and args[-1].endswith("f.txt"):
        Path(args[-1]).write_text("a file of the user's\n", encoding="utf-8")
    if args[:2] == ["sweep", ruleset] and args[3] == "castling" and args[5] == "10":
        wrong = False
    return [Case("cli", args, must_fail=wrong, note=" ".join(args[:3]))]


def play_case(rng: random.Random, folder: Path) -> list[Case]:
    """``schachett play`` with typed lines: cards, numbers, junk, help, castles, end of input."""
    ruleset = rng.choice(["original", "reconstruction", "three-player", "two-player", "solitaire"])
    words = ["?", "0", "1", "99", "-1", "wK", "sIV", "zz", "castle", "castle wT", "castle 0 wT sK", "quit", "",
             "w7", "s8", "\x1b[A", "1e9", "ü"]
    typed = "\n".join(rng.choice(words) for _ in range(rng.randrange(1, 60))) + "\n"
    out = folder / f"game-{rng.randrange(10**9)}.json"
    return [Case("play", ["play", ruleset, "--seed", str(rng.randrange(50)), "--bots", "random", "--out", str(out)],
                 stdin=typed, outputs=(out,), note=ruleset)]


GENERATORS = {"rule": rule_case, "extends": extends_case, "record": record_case, "session": session_case,
              "cli": flag_case, "play": play_case}


def sandbox(folder: Path) -> Path:
    """A copy of the project's data (rule files, manual, docs) as ``SCHACHETT_HOME``, so that a command that
    would destroy them destroys only the copy; the fuzzer counts it all the same."""
    real = Path(__file__).resolve().parent.parent
    box = folder / "home"
    if box.exists():
        shutil.rmtree(box)
    box.mkdir(parents=True)
    for top in WATCHED:
        src = real / top
        if src.is_dir():
            shutil.copytree(src, box / top)
        elif src.is_file():
            shutil.copy2(src, box / top)
    os.environ["SCHACHETT_HOME"] = str(box)
    return box


def snapshot() -> dict[str, str]:
    """A fingerprint of every file of the project a command must not touch (the data under ``SCHACHETT_HOME``
    and the package itself)."""
    out = {}
    root = home()
    bases = [(root / top, root) for top in WATCHED] + [(PACKAGE, PACKAGE.parent)]
    for base, rel in bases:
        if not base.exists():
            continue
        files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        for p in files:
            out[str(p.relative_to(rel))] = hashlib.sha1(p.read_bytes()).hexdigest()
    return out


class Hang(Exception):
    """A case ran past its time limit."""


def _alarm(signum, frame):
    raise Hang()


def run_case(case: Case, before: dict[str, str] | None = None, limit: int = 60) -> Verdict:
    """Run one case and list its problems (a traceback, an odd exit code, an error without a place, a hang, …)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        result = CliRunner().invoke(main, case.args, input=case.stdin, catch_exceptions=True)
    except Hang:
        return Verdict(case, -1, [f"hang: still running after {limit} s"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if isinstance(result.exception, Hang):
        return Verdict(case, -1, [f"hang: still running after {limit} s"])
    text = result.output + (result.stderr if result.stderr_bytes is not None and result.stderr not in result.output
                            else "")
    verdict = Verdict(case, result.exit_code, output=text)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        verdict.problems.append(f"traceback: {type(exc).__name__}: {str(exc)[:200]}")
    elif "Traceback (most recent call last)" in text:
        verdict.problems.append("traceback printed")
    if result.exit_code not in (0, 1, 2):
        verdict.problems.append(f"exit code {result.exit_code}")
    if result.exit_code in (1, 2) and not LOCATION.search(text):
        verdict.problems.append("an error that says nowhere where: " + text.strip()[:200])
    if case.must_fail and result.exit_code == 0:
        verdict.problems.append("accepted, though wrong by construction")
    if before is not None:
        after = snapshot()
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            verdict.problems.append("changed project files: " + ", ".join(changed[:5]))
    return verdict


def cases(seed: int, count: int, folder: Path, kinds=tuple(GENERATORS)) -> list[Case]:
    """``count`` cases (roughly), drawn from the kinds in turn with a seeded stream."""
    rng = random.Random(seed)
    out: list[Case] = []
    i = 0
    while len(out) < count:
        out += GENERATORS[kinds[i % len(kinds)]](rng, folder)
        i += 1
    return out[:count]
