"""The game server as one ASGI application (Starlette): pages, the JSON API, the WebSocket, cards and styles.

Run it with ``schachett serve`` (uvicorn). Routes:

================================================  ==============================================
``GET /``                                         the start page: rules, readings, people and bots
``POST /tables``                                  the start page's form: a new table, its links
``GET /tables/ID``                                a table (the key in the link's ``#k=`` fragment)
``GET /tables/ID/games/N/replay``                 the replay viewer of a finished game
``POST /api/tables``                              a new table (JSON)
``GET /api/tables/ID``                            a seat's view (``Authorization: Bearer KEY``) or a spectator's
``POST /api/tables/ID/actions``                   an action for the key's seat
``GET /api/tables/ID/record``                     the record of the last finished game
``GET /api/tables/ID/games/N/record``, ``/replay``  a finished game's record, and its steps for the viewer
``WS /ws/tables/ID``                              every new view pushed; actions may be sent too
================================================  ==============================================

>>> app = create_app("sqlite://")            # an in-memory database, for a test
>>> [r.path for r in app.routes][:3]
['/', '/tables', '/tables/{table}']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .api import Api
from .limits import Limits
from .pages import HERE, Pages, error_page
from .push import Hub
from .requests import RequestError
from .service import Service
from .store import Store

log = logging.getLogger("schachett.server")

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Every HTTP answer carries a strict content policy: scripts and styles of this server only, no framing."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sending(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)
        await self.app(scope, receive, sending)


def create_app(db: str | Store | None = None, per_key: float = 20, per_address: float = 100,
               poll: float = 0.25) -> Starlette:
    """The application on database ``db`` (a URL or an open :class:`Store`), with its rate limits per second."""
    store = db if isinstance(db, Store) else Store.open(db)
    service = Service(store)
    hub = Hub(service, poll)
    api, pages = Api(service, Limits(per_key, per_address), hub), Pages(service)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        poller = asyncio.ensure_future(hub.run())
        try:
            yield
        finally:
            poller.cancel()

    async def not_found(request: Request, exc: HTTPException) -> Response:
        err = RequestError(exc.status_code, "there is no such page" if exc.status_code == 404 else str(exc.detail))
        if request.url.path.startswith("/api/"):
            return JSONResponse(err.as_json(), status_code=exc.status_code)
        return error_page(err)

    async def failure(request: Request, exc: Exception) -> Response:
        log.exception("request %s %s failed", request.method, request.url.path)
        return JSONResponse({"error": "the server failed to answer this request; nothing was changed by it",
                             "clause": None}, status_code=500)

    routes = [
        Route("/", pages.start),
        Route("/tables", pages.create, methods=["POST"]),
        Route("/tables/{table}", pages.table),
        Route("/tables/{table}/games/{number:int}/replay", pages.replay),
        Route("/cards/{ruleset}/{card}.svg", pages.card),
        Route("/api/tables", api.create, methods=["POST"]),
        Route("/api/tables/{table}", api.view),
        Route("/api/tables/{table}/actions", api.act, methods=["POST"]),
        Route("/api/tables/{table}/record", api.record),
        Route("/api/tables/{table}/games/{number:int}/record", api.record),
        Route("/api/tables/{table}/games/{number:int}/replay", api.replay),
        WebSocketRoute("/ws/tables/{table}", api.socket),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)],
                    exception_handlers={HTTPException: not_found, Exception: failure})
    app.state.service, app.state.hub = service, hub
    return app


def factory() -> Starlette:
    """The application as ``schachett serve --workers N`` starts it in each worker process (settings from the
    environment that the command sets: ``SCHACHETT_SERVER_DB``, ``SCHACHETT_SERVER_RATES``)."""
    import os
    per_key, per_address = (float(x) for x in os.environ.get("SCHACHETT_SERVER_RATES", "20,100").split(","))
    return create_app(os.environ.get("SCHACHETT_SERVER_DB") or None, per_key, per_address)
