"""What counting a body as it comes costs: ``Client.send`` reading a large body from a
local server, with a :class:`~explorer.core.http.progress.BodyProgress` and without.

A server in this process (asyncio, 127.0.0.1) answers every request with ``--size``
bytes and a Content-Length, written as fast as the socket takes them. The runs
alternate (with, without, with...), so a busy spell of a shared machine slows both;
each run's CPU time (this process's: the client's and the server's, which is the same
in both) is printed with the medians, and the wall time beside it.

    .venv/bin/python bench/bench_body_progress.py [--size 20000000] [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from explorer.core.http.client import Client
from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import RequestSpec


async def serve(size: int, handlers: set[asyncio.Task[None]]) -> tuple[asyncio.Server, str]:
    """A server answering every request with ``size`` bytes; its connections' tasks go in
    ``handlers`` (each ends when the client closes its connection)."""
    body = b"x" * size
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % size

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        try:
            while await reader.readuntil(b"\r\n\r\n"):
                writer.write(head)
                writer.write(body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"


async def main(size: int, runs: int) -> None:
    handlers: set[asyncio.Task[None]] = set()
    server, url = await serve(size, handlers)
    figures: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    async with Client(max_body=size * 2) as client:
        await client.send(RequestSpec(url=url))  # (the connection made, the code warm)
        for run in range(runs * 2):
            counted = run % 2 == 0
            progress = BodyProgress(client.clock) if counted else None
            cpu, wall = time.process_time(), time.perf_counter()
            exchange = await client.send(RequestSpec(url=url), progress=progress)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            assert len(exchange.response.body) == size
            figures[counted].append((cpu, wall))
            print(
                f"{'with' if counted else 'without':>7}: cpu {cpu * 1000:6.1f} ms  wall "
                f"{wall * 1000:6.1f} ms"
            )
    server.close()
    await asyncio.gather(*handlers)  # (the client closed: each sees the end)
    for counted, runs_of in figures.items():
        cpu = statistics.median(figure[0] for figure in runs_of) * 1000
        wall = statistics.median(figure[1] for figure in runs_of) * 1000
        print(
            f"median {'with' if counted else 'without'} progress: cpu {cpu:.1f} ms, "
            f"wall {wall:.1f} ms ({len(runs_of)} runs of {size:,} bytes)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=15)
    options = parser.parse_args()
    asyncio.run(main(options.size, options.runs))
