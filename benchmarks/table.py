"""The table in the browser under load, issue 32's figures: ``python -m benchmarks.table``.

One server process (uvicorn, as ``outofgears table`` runs it) holds N tables of four phones
each, every table its own :class:`~outofgears.table.room.Room` with its log in a file (each
turn written whole, as in play), mounted under ``/tN``. The phones are simulated clients in
this process (the ``websockets`` client, no browser): on every turn each phone seals a random
legal program (SHA-256 and a nonce, as the page does), then reveals it once every seal is in,
and the phone asked a question answers it with the default at once. All the tables play at
the same time, turn after turn, for ``--turns`` turns.

Measured, for each N side by side: the time from the last reveal of a turn to each phone's
receiving the view that shows the turn played (or the first question of the turn): its
median and 99th percentile over every phone and turn; the turns played per second across
the tables; the server's CPU time for one turn of one table (what bounds how many tables one
core serves: a table plays a turn every half minute or so); and the server's CPU use (user + system seconds per wall second, of its one
process) beside the simulated phones' (this process: when it nears 100% the phones, not the
server, are what the figures measure). A table is "held" while the 99th percentile stays under ``--budget`` seconds.

Beyond one process (on paper): the tables are independent and each one's state is its log,
so tables spread over processes or machines by their address, with no state shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from outofgears.log.seals import seal_commitment

SECRET = b"the benchmark's tables' secret.."
NAMES = ("Ada", "Bea", "Cy", "Dan")


# --- the server ---------------------------------------------------------------------------------


def serve(tables: int, port: int, folder: Path) -> None:
    """Serve ``tables`` tables on 127.0.0.1:``port`` (this process), their logs in ``folder``."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from outofgears.log import GameLog, Start, dump_log
    from outofgears.table.room import Room
    from outofgears.web.app import MAX_MESSAGE, create_app
    from tests.web.phones import FileStore

    routes = []
    for index in range(tables):
        path = folder / f"table-{index}.json"
        players = {name: (number,) for number, name in enumerate(NAMES, start=1)}
        path.write_text(dump_log(GameLog(players=players, start=Start(seed=index))))
        room = Room(path.read_text(), {}, FileStore(path), SECRET, seed=index)
        routes.append(Mount(f"/t{index}", create_app(room)))
    uvicorn.run(
        Starlette(routes=routes),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE * 2,
    )


# --- the phones -----------------------------------------------------------------------------


class Phone:
    """One simulated phone: its connection and the views it receives."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.arrivals: list[tuple[float, dict[str, Any]]] = []

    async def listen(self) -> None:
        async for text in self.connection:
            data = json.loads(text)
            if data["type"] == "view":
                self.view = data
                self.arrivals.append((time.perf_counter(), data))
                self.changed.set()
            elif data["type"] == "error":
                print("refused:", data["reason"], file=sys.stderr)

    async def until(self, check: Any) -> dict[str, Any]:
        while not check(self.view):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 60)
        return self.view


def played_view(view: dict[str, Any], turn: int) -> bool:
    """Whether a view shows turn ``turn`` revealed: its first question, or the next turn."""
    return view["turn"] > turn or (view["turn"] == turn and view["phase"] in ("choose", "over"))


async def play_table(port: int, index: int, turns: int, delays: list[float]) -> int:
    """Four phones play ``turns`` turns at table ``index``; each phone's delay from the last
    reveal to its view of the turn played goes to ``delays``. The turns played."""
    import websockets

    from outofgears.table.room import seat_key

    rng = random.Random(index)
    origin = f"http://127.0.0.1:{port}"
    phones = []
    for name in NAMES:
        url = f"ws://127.0.0.1:{port}/t{index}/ws/{seat_key(SECRET, name)}"
        connection = await websockets.connect(url, origin=origin)  # type: ignore[arg-type]
        phones.append(Phone(connection))
    listeners = [asyncio.create_task(phone.listen()) for phone in phones]
    played = 0
    try:
        await asyncio.gather(*(p.until(lambda v: v.get("phase") == "commit") for p in phones))
        for _ in range(turns):
            turn = phones[0].view["turn"]
            if phones[0].view["phase"] == "over":
                break
            sealed = []
            for phone in phones:
                robot, legal = next(iter(phone.view["legal"].items()))
                program, nonce = rng.choice(legal), secrets.token_hex(16)
                sealed.append({robot: {"program": program, "nonce": nonce}})
                commitment = seal_commitment(turn, int(robot), program, nonce)
                await phone.connection.send(
                    json.dumps({"type": "commit", "commitments": {robot: commitment}})
                )
            await asyncio.gather(*(p.until(lambda v: v["phase"] == "reveal") for p in phones))
            for phone, reveals in zip(phones, sealed, strict=True):
                last_sent = time.perf_counter()
                await phone.connection.send(json.dumps({"type": "reveal", "reveals": reveals}))
            for phone in phones:
                await phone.until(lambda v, t=turn: played_view(v, t))
                arrived = next(at for at, view in phone.arrivals if played_view(view, turn))
                delays.append(arrived - last_sent)
                phone.arrivals.clear()
            while True:  # the questions, answered with the default at once
                asked = [p for p in phones if p.view.get("question")]
                if not asked:
                    break
                question = asked[0].view["question"]
                await asked[0].connection.send(
                    json.dumps({"type": "choose", "key": question["key"], "answer": ""})
                )
                await asked[0].until(lambda v, q=question: (v.get("question") or {}) != q)
                version = asked[0].view["version"]  # every phone's view of the answer
                await asyncio.gather(
                    *(p.until(lambda v, n=version: v["version"] >= n) for p in phones)
                )
            await asyncio.gather(
                *(p.until(lambda v, t=turn: v["turn"] > t or v["phase"] == "over") for p in phones)
            )
            played += 1
    finally:
        for task in listeners:
            task.cancel()
        for phone in phones:
            await phone.connection.close()
    return played


async def drive(port: int, tables: int, turns: int) -> tuple[list[float], int, float]:
    """All the tables at once: the delays, the turns played, the wall time."""
    delays: list[float] = []
    began = time.perf_counter()
    played = await asyncio.gather(*(play_table(port, i, turns, delays) for i in range(tables)))
    return delays, sum(played), time.perf_counter() - began


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def measure(tables: int, turns: int) -> dict[str, float]:
    """Run a server with ``tables`` tables and drive them; the figures."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="oog-table-bench-") as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.table",
                "--serve",
                str(tables),
                "--port",
                str(port),
                "--folder",
                folder,
            ]
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
            cpu_before, mine_before = cpu_seconds(server.pid), time.process_time()
            delays, played, wall = asyncio.run(drive(port, tables, turns))
            cpu = cpu_seconds(server.pid) - cpu_before
            mine = time.process_time() - mine_before
        finally:
            server.terminate()
            server.wait(timeout=10)
    delays.sort()
    return {
        "tables": tables,
        "median": statistics.median(delays),
        "p99": delays[min(len(delays) - 1, int(len(delays) * 0.99))],
        "turns_per_s": played / wall,
        "cpu": cpu / wall,
        "cpu_per_turn": cpu / max(played, 1),
        "phones_cpu": mine / wall,
        "samples": len(delays),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="1,5,10,20,40", help="The numbers of tables to try.")
    parser.add_argument("--turns", type=int, default=5, help="Turns each table plays.")
    parser.add_argument("--budget", type=float, default=1.0, help="The p99 a table may wait, s.")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve is not None:
        serve(arguments.serve, arguments.port, Path(arguments.folder))
        return
    print(
        f"one server process, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
        f"{arguments.turns} turns a table"
    )
    print(
        f"{'tables':>6} {'phones':>6} {'median ms':>10} {'p99 ms':>8} {'turns/s':>8} {'server CPU':>10} "
        f"{'phones CPU':>10} {'server CPU ms/turn':>18}"
    )
    held = 0
    for tables in map(int, arguments.tables.split(",")):
        figures = measure(tables, arguments.turns)
        print(
            f"{tables:>6} {tables * 4:>6} {figures['median'] * 1000:>10.1f} "
            f"{figures['p99'] * 1000:>8.1f} {figures['turns_per_s']:>8.1f} "
            f"{figures['cpu']:>10.0%} {figures['phones_cpu']:>10.0%} "
            f"{figures['cpu_per_turn'] * 1000:>18.1f}",
            flush=True,
        )
        if figures["p99"] <= arguments.budget:
            held = tables
    print(f"held with the last reveal's p99 under {arguments.budget:.1f} s: {held} tables")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (other processes share the cores)")


if __name__ == "__main__":
    main()
