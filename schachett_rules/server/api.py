"""The JSON API and the WebSocket: thin wrappers that read a request, ask the service, and answer.

Every answer is JSON; a refusal is ``{"error": ..., "clause": ...}`` with a 4xx status and leaves
the table as it was. The key travels in ``Authorization: Bearer KEY`` (or, on the WebSocket, in
the first message), never in a URL, so it is in no address bar's history of a server log. The
service's work runs in worker threads (:func:`anyio.to_thread.run_sync`), so the event loop
keeps answering while a bot thinks.
"""

from __future__ import annotations

import asyncio
import json
import logging

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from .keys import MAX_KEY, hash_key
from .requests import MAX_BODY, RequestError, read_json

log = logging.getLogger("schachett.server")
FIRST_MESSAGE_WAIT = 10.0      # seconds a new WebSocket has to send its key


def bearer(request: Request) -> str | None:
    """The key of ``Authorization: Bearer KEY``, or None; a malformed header is refused.

    >>> from starlette.requests import Request
    >>> bearer(Request({"type": "http", "headers": [(b"authorization", b"Bearer abc")]}))
    'abc'
    >>> bearer(Request({"type": "http", "headers": [(b"authorization", b"Basic abc")]}))
    Traceback (most recent call last):
    ...
    schachett_rules.server.requests.RequestError: the Authorization header must be 'Bearer KEY', KEY being your invitation's key
    """
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip() or len(key) > MAX_KEY:
        raise RequestError(401, "the Authorization header must be 'Bearer KEY', KEY being your invitation's key")
    return key.strip()


async def read_body(request: Request) -> bytes:
    """The request's body, refused unread (or as soon as it grows) past 16 KiB."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise RequestError(413, f"the message is larger than {MAX_BODY} bytes (16 KiB)")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(413, f"the message is larger than {MAX_BODY} bytes (16 KiB)")
        chunks.append(chunk)
    return b"".join(chunks)


async def body_of(request: Request) -> object:
    """The request's JSON body, refused unread past 16 KiB."""
    return read_json(await read_body(request))


def error_response(err: RequestError) -> JSONResponse:
    return JSONResponse(err.as_json(), status_code=err.status)


class Api:
    """The API's endpoints, bound to one service, its limits and its hub."""

    def __init__(self, service, limits, hub):
        self.service, self.limits, self.hub = service, limits, hub

    def _limit(self, request_or_ws, key: str | None) -> None:
        client = request_or_ws.client
        why = self.limits.allow(client.host if client else "?", hash_key(key) if key else None)
        if why:
            raise RequestError(429, why)

    async def _answer(self, request: Request, work) -> Response:
        try:
            key = bearer(request)
            self._limit(request, key)
            return JSONResponse(await work(key))
        except RequestError as err:
            return error_response(err)

    async def create(self, request: Request) -> Response:
        async def work(_key):
            body = await body_of(request)
            table_id, seats = await to_thread.run_sync(self.service.create, body)
            base = str(request.base_url).rstrip("/")
            for s in seats:
                s["url"] = f"{base}/tables/{table_id}#k={s['key']}" if s["key"] else None
            return {"table": table_id, "url": f"{base}/tables/{table_id}", "seats": seats}
        return await self._answer(request, work)

    async def view(self, request: Request) -> Response:
        table_id = request.path_params["table"]
        return await self._answer(request, lambda key: to_thread.run_sync(self.service.view, table_id, key))

    async def act(self, request: Request) -> Response:
        table_id = request.path_params["table"]

        async def work(key):
            body = await body_of(request)
            view = await to_thread.run_sync(self.service.act, table_id, key, body)
            self.hub.changed(table_id, view["version"])
            return view
        return await self._answer(request, work)

    async def record(self, request: Request) -> Response:
        table_id, number = request.path_params["table"], request.path_params.get("number")
        return await self._answer(request, lambda _k: to_thread.run_sync(self.service.record, table_id, number))

    async def replay(self, request: Request) -> Response:
        table_id, number = request.path_params["table"], request.path_params["number"]
        return await self._answer(request, lambda _k: to_thread.run_sync(self.service.replay, table_id, number))

    # --- the WebSocket -------------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        """``/ws/tables/ID``: the first message ``{"key": KEY}`` (or ``{"key": null}`` to watch); then every new view
        is pushed as ``{"type": "view", "view": ...}``, and an action sent answers ``{"type": "answer", ...}`` or
        ``{"type": "error", "error": ..., "clause": ...}``."""
        table_id = ws.path_params["table"]
        await ws.accept()
        event = None
        try:
            first = await asyncio.wait_for(self._message(ws), FIRST_MESSAGE_WAIT)
            if not isinstance(first, dict) or set(first) - {"key"}:
                raise RequestError(400, 'the first message is {"key": KEY}, or {"key": null} to watch the table')
            key = first.get("key")
            if key is not None and not isinstance(key, str):
                raise RequestError(400, "the key is a text")
            self._limit(ws, key)
            view = await to_thread.run_sync(self.service.view, table_id, key)
            event = self.hub.watch(table_id)
            await ws.send_json({"type": "view", "view": view})
            await self._converse(ws, table_id, key, event, view["version"])
        except asyncio.TimeoutError:
            await self._close(ws, RequestError(408, "no key came within 10 seconds"))
        except RequestError as err:
            await self._close(ws, err)
        except WebSocketDisconnect:
            pass
        finally:
            if event is not None:
                self.hub.unwatch(table_id, event)

    async def _message(self, ws: WebSocket) -> object:
        text = await ws.receive_text()
        if len(text.encode("utf-8", "replace")) > MAX_BODY:
            raise RequestError(413, f"the message is larger than {MAX_BODY} bytes (16 KiB)")
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise RequestError(400, "the message is not JSON text") from None

    @staticmethod
    async def _close(ws: WebSocket, err: RequestError) -> None:
        try:
            await ws.send_json({"type": "error", **err.as_json()})
            await ws.close(code=1008 if err.status in (401, 403, 404) else 1009 if err.status == 413 else 1000)
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def _converse(self, ws: WebSocket, table_id: str, key: str | None, event: asyncio.Event, sent: int) -> None:
        """Answer the client's actions and push the table's changes, whichever comes first."""
        receive = asyncio.ensure_future(self._message(ws))
        changed = asyncio.ensure_future(event.wait())
        try:
            while True:
                done, _ = await asyncio.wait({receive, changed}, return_when=asyncio.FIRST_COMPLETED)
                if changed in done:
                    event.clear()
                    changed = asyncio.ensure_future(event.wait())
                    if self.hub.seen(table_id) == sent:      # its own action's change: already answered
                        continue
                    view = await to_thread.run_sync(self.service.view, table_id, key)
                    if view["version"] != sent:
                        sent = view["version"]
                        await ws.send_json({"type": "view", "view": view})
                if receive in done:
                    task, receive = receive, asyncio.ensure_future(self._message(ws))
                    try:
                        data = task.result()
                        self._limit(ws, key)
                        view = await to_thread.run_sync(self.service.act, table_id, key, data)
                        sent = view["version"]
                        await ws.send_json({"type": "answer", "view": view})
                        self.hub.changed(table_id, view["version"])
                    except RequestError as err:
                        if err.status == 413:
                            raise
                        await ws.send_json({"type": "error", **err.as_json()})
        finally:
            receive.cancel()
            changed.cancel()
