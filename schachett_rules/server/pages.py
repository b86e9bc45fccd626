"""The server's pages: the start page (a ruleset, its readings, people and bots), the table, the replay viewer.

Pages are plain HTML from Jinja2 templates with a little JavaScript of the server's own (no build
step, nothing fetched from elsewhere). The table page holds no game data at all: its script reads
the key from the link's fragment (``#k=KEY``, which browsers never send to a server) and asks
the API for the seat's view, so a page can show nothing the API would not. Cards are the site's
SVG drawings (:mod:`schachett_rules.site.svgcards`).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import parse_qs

from anyio import to_thread
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from .. import paths
from ..errors import SchachettError
from ..players import BOTS
from ..site.svgcards import card_svg
from .api import read_body
from .requests import RequestError
from .session_plan import rules_of

HERE = Path(__file__).resolve().parent
ENV = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html", "j2"]),
                  trim_blocks=True, lstrip_blocks=True)
BOT_TITLES = {"random": "random bot", "heuristic": "heuristic bot", "mc": "Monte-Carlo bot (strongest)"}
DEFAULT_RULESET = "reconstruction"
CARD_NAME = re.compile(r"[A-Za-z0-9]{1,8}\Z")


def page(name: str, status: int = 200, **context) -> HTMLResponse:
    """A template rendered as a page."""
    return HTMLResponse(ENV.get_template(name).render(**context), status_code=status)


def error_page(err: RequestError) -> HTMLResponse:
    return page("error.html", status=err.status, message=err.message)


@functools.lru_cache(maxsize=32)
def ruleset_form(name: str) -> dict:
    """What the start page offers for a ruleset: its title, its lacunae with their readings, its players.

    >>> form = ruleset_form("three-player")
    >>> [(p["player"], p["seats"]) for p in form["players"]]
    [('A', ['the Kaiser', 'the dummy']), ('B', ["the Kaiser's left"]), ('C', ["the Kaiser's right"])]
    """
    r, t, plan = rules_of(name, ())
    lacunae = [{"name": c.lacuna.name, "question": c.lacuna.question, "chosen": c.option,
                "section": c.lacuna.basis.cites[0] if c.lacuna.basis.cites else "",
                "options": [{"name": o.name, "summary": o.summary, "grade": o.basis.grade} for o in c.lacuna.options]}
               for c in r.lacunae]
    seating = plan.seating(1)
    players = [{"player": p, "seats": [t.seat_name(s) for s in range(t.n_seats) if seating[t.controller(s)] == p]}
               for p in plan.players]
    return {"name": name, "title": r.title or name, "lacunae": lacunae, "players": players}


@functools.lru_cache(maxsize=4096)
def card_image(ruleset: str, card: str) -> str | None:
    """A card's SVG drawing, from the ruleset's deck (None for a name the deck does not have).

    >>> "<title>black Dame (sD)</title>" in card_image("original", "sD"), card_image("original", "sZ")
    (True, None)
    """
    from ..kernel.compiler import tables_for
    deck = tables_for(ruleset).deck
    try:
        return card_svg(deck, deck.face(card))
    except SchachettError:
        return None


class Pages:
    """The HTML endpoints, bound to the service."""

    def __init__(self, service):
        self.service = service

    async def start(self, request: Request) -> Response:
        name = request.query_params.get("ruleset", DEFAULT_RULESET)
        known = paths.known_rulesets()
        if name not in known:
            return error_page(RequestError(404, f"there is no ruleset {name[:70]!r}; the rulesets are "
                                                f"{', '.join(known)}"))
        form = await to_thread.run_sync(ruleset_form, name)
        titles = {n: (await to_thread.run_sync(ruleset_form, n))["title"] for n in known}
        return page("start.html", rulesets=known, titles=titles, form=form,
                    kinds=[("person", "a person")] + [(f"bot:{b}", BOT_TITLES.get(b, b)) for b in BOTS])

    async def create(self, request: Request) -> Response:
        """The start page's form: the table is made, and the page lists each person's invitation link."""
        try:
            raw = await read_body(request)
            form = parse_qs(raw.decode("utf-8", "replace"), max_num_fields=200)
            ruleset = form.get("ruleset", [DEFAULT_RULESET])[0]
            options = {k[4:]: v[0] for k, v in form.items() if k.startswith("opt:")}
            seats = [form[k][0] for k in sorted((k for k in form if k.startswith("seat:")), key=lambda k: int(k[5:])
                                                if k[5:].isdigit() else 99)]
            table_id, places = await to_thread.run_sync(self.service.create,
                                                        {"ruleset": ruleset, "options": options, "seats": seats})
        except RequestError as err:
            return error_page(err)
        base = str(request.base_url).rstrip("/")
        for p in places:
            p["url"] = f"{base}/tables/{table_id}#k={p['key']}" if p["key"] else None
        form = await to_thread.run_sync(ruleset_form, ruleset)
        return page("created.html", table=table_id, places=places, form=form, watch=f"{base}/tables/{table_id}")

    async def table(self, request: Request) -> Response:
        table_id = request.path_params["table"]
        try:
            await to_thread.run_sync(self.service.version, table_id)
        except RequestError as err:
            return error_page(err)
        return page("table.html", table=table_id)

    async def replay(self, request: Request) -> Response:
        table_id, number = request.path_params["table"], request.path_params["number"]
        try:
            await to_thread.run_sync(self.service.record, table_id, number)
        except RequestError as err:
            return error_page(err)
        return page("replay.html", table=table_id, number=number)

    async def card(self, request: Request) -> Response:
        ruleset, card = request.path_params["ruleset"], request.path_params["card"]
        if ruleset not in paths.known_rulesets() or not CARD_NAME.match(card):
            return Response("no such card", status_code=404, media_type="text/plain")
        svg = await to_thread.run_sync(card_image, ruleset, card)
        if svg is None:
            return Response("no such card", status_code=404, media_type="text/plain")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

