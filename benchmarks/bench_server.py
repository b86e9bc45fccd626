"""Load on the game server: N tables, bots in every seat but one scripted client, played at once over WebSockets.

    python benchmarks/bench_server.py --tables 200 --think 2      # people's pace: a card every 2 s or so
    python benchmarks/bench_server.py --tables 200 --think 0      # flat out: the server's throughput
    python benchmarks/bench_server.py --db postgresql://postgres@127.0.0.1:5432/bench --workers 2

It starts `schachett serve` on 127.0.0.1 (a free port; rate limits raised, since every client comes from
one address), creates the tables over the API, opens one WebSocket per table, and each client plays the
first legal card whenever its view says its decision is due (``--think`` seconds later, drawn between half
and one and a half times that), starting the next game when one ends, until each table has played
``--games`` games. It prints the games per second and the p50/p99 time from sending a card to its answer
(which includes the bots' cards that follow it). Everything stays on this machine, and the run stops after
``--timeout`` seconds at the most.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, workers: int, folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    args = [sys.executable, "-m", "schachett_rules.cli.main", "serve", "--port", str(port), "--db", db,
            "--workers", str(workers), "--rate-per-key", "100000", "--rate-per-address", "1000000"]
    proc = subprocess.Popen(args, cwd=folder, stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "wb"))
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/static/style.css", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"the server did not start:\n{(folder / 'server.log').read_text()}")


async def client(url: str, table: str, key: str, games: int, think: float, rng: random.Random,
                 latencies: list[float], done: list[float]) -> None:
    async with connect(url.replace("http", "ws") + f"/ws/tables/{table}", max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"key": key}))
        view = json.loads(await ws.recv())["view"]
        played = 0
        while True:
            if view["over"]:
                played += 1
                done.append(time.perf_counter())
                if played == games:
                    return
                action = {"next": True}
            elif view["decision"] == "card" and view["turn"]["yours"]:
                action = {"card": view["legal"][0]}
            else:
                view = json.loads(await ws.recv())["view"]
                continue
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            await ws.send(json.dumps(action))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "answer":
                    break
                if msg["type"] == "error":
                    raise RuntimeError(msg["error"])
            if "card" in action:
                latencies.append(time.perf_counter() - sent)
            view = msg["view"]


async def run(url: str, tables: int, games: int, think: float, ruleset: str, bot: str, timeout: float) -> dict:
    async with httpx.AsyncClient(timeout=60) as http:
        made = []
        for _ in range(tables):
            r = await http.post(url + "/api/tables", json={"ruleset": ruleset, "seats": ["person"] + [f"bot:{bot}"] * 3})
            r.raise_for_status()
            made.append(r.json())
    latencies: list[float] = []
    done: list[float] = []
    rng = random.Random(1)
    start = time.perf_counter()
    tasks = [client(url, m["table"], m["seats"][0]["key"], games, think, random.Random(rng.random()), latencies, done)
             for m in made]
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout)
    wall = time.perf_counter() - start
    errors = [r for r in results if isinstance(r, Exception)]
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
    return {"tables": tables, "games": len(done), "seconds": round(wall, 2), "games_per_second": round(len(done) / wall, 2),
            "cards": len(latencies), "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
            "errors": len(errors), "first_error": repr(errors[0]) if errors else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--games", type=int, default=1, help="games each table plays")
    ap.add_argument("--think", type=float, default=2.0, help="seconds the scripted person waits before a card (0: none)")
    ap.add_argument("--db", default=None, help="a database URL (default: a new SQLite file in a temporary folder)")
    ap.add_argument("--workers", type=int, default=1, help="server processes")
    ap.add_argument("--ruleset", default="original")
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = args.db or f"sqlite:///{folder / 'bench.sqlite'}"
        proc, url = start_server(db, args.workers, folder)
        try:
            figures = asyncio.run(run(url, args.tables, args.games, args.think, args.ruleset, args.bot, args.timeout))
        finally:
            proc.terminate()
            proc.wait(20)
    figures |= {"workers": args.workers, "think_s": args.think, "db": db.split(":")[0], "cores": os.cpu_count()}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['tables']} tables, {figures['workers']} process(es) on {figures['db']}, think {args.think} s: "
              f"{figures['games']} games in {figures['seconds']} s = {figures['games_per_second']} games/s; "
              f"card to answer p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms over {figures['cards']} cards; "
              f"{figures['errors']} errors")


if __name__ == "__main__":
    main()
