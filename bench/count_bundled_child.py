"""What the bundled mock's process costs from its start to its first answer, counted.

``restwalk`` with no URL binds a socket and starts ``python -m explorer.cli.bundled_child``
on it (:class:`~explorer.cli.bundled_child.BundledProcess`); its UI's first request,
``GET /`` (the start page), waits in the socket's queue until the child serves. This
does the same: binds the socket, starts the child, sends ``GET /`` at once, and kills
the child the moment the whole answer has come, then reads what the child cost:

- with none: its CPU time (user + system, from ``wait4``), median of ``--runs``;
- ``--instructions``: instructions executed (callgrind, stable on a shared machine),
  median of ``--runs``; ``--callgrind-out FILE`` keeps one run's profile;
- ``--importtime``: print ``python -X importtime``'s lines of one run (which modules
  the child imports, and at what cost).

    .venv/bin/python bench/count_bundled_child.py [--instructions] [--runs 5]

The child is the current directory's checkout (``python -m`` imports from there first):
another checkout's is counted from its directory.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

#: The start page's request, with the header fields restwalk's client sends
#: (explorer.core.http.request).
_REQUEST = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: restwalk\r\nAccept: */*\r\n"
    b"Accept-Encoding: gzip, deflate\r\n\r\n"
)


def _answer(sock: socket.socket) -> bytes:
    """The whole of one HTTP/1.1 answer with a ``content-length`` read from ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit(f"the child closed the connection: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    if length is None:
        raise SystemExit(f"no content-length: {head!r}")
    while len(body) < int(length.group(1)):
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the child closed the connection mid-answer")
        body += chunk
    return head + b"\r\n\r\n" + body


def _run(prefix: list[str], python_options: list[str], env: dict[str, str]) -> float:
    """One start of the child to its first answer; its CPU seconds (user + system)."""
    from explorer.cli.bundled_server import listen

    listening, _ = listen(0)
    with listening:
        child = subprocess.Popen(
            [
                *prefix,
                sys.executable,
                *python_options,
                "-m",
                "explorer.cli.bundled_child",
                str(listening.fileno()),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE if python_options else subprocess.DEVNULL,
            pass_fds=(listening.fileno(),),
            env=env,
        )
        client = socket.create_connection(listening.getsockname()[:2])
    with client:
        client.sendall(_REQUEST)
        answer = _answer(client)
    if not answer.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"the child answered {answer[:200]!r}")
    if prefix:  # (valgrind writes its counts at the end of a signalled program)
        child.send_signal(signal.SIGTERM)
        child.wait()
        return 0.0
    if python_options:  # (-X importtime: read its lines to the end)
        child.kill()
        errors = child.communicate()[1]
        sys.stdout.write(errors.decode())
        return 0.0
    child.kill()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = -9
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    import argparse
    import compileall
    import statistics
    import tempfile
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="count with callgrind")
    parser.add_argument("--callgrind-out", help="keep one run's callgrind profile here")
    parser.add_argument("--importtime", action="store_true", help="print -X importtime's lines")
    args = parser.parse_args()
    # (as pip compiles an installed package's: a module changed since would be compiled
    # by the run, and counted)
    for package in ("explorer", "mock_server"):
        compileall.compile_dir(Path.cwd() / package, quiet=1)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if args.importtime:
        _run([], ["-X", "importtime"], env)
        return
    if args.instructions:
        counts = []
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(args.runs):
                out = args.callgrind_out if (run == 0 and args.callgrind_out) else f"{tmp}/cg"
                log = Path(f"{tmp}/log")
                _run(
                    [
                        "valgrind",
                        "--tool=callgrind",
                        f"--callgrind-out-file={out}",
                        f"--log-file={log}",
                    ],
                    [],
                    env,
                )
                found = re.search(r"Collected\s*:\s*(\d+)", log.read_text())
                if found is None:
                    raise SystemExit(f"callgrind gave no count: {log.read_text()[-2000:]}")
                counts.append(int(found.group(1)))
                print(f"  run {run + 1}: {counts[-1] / 1e6:,.1f} M instructions", flush=True)
        print(f"child to its first answer: {statistics.median(counts) / 1e6:,.1f} M instructions")
        return
    cpu = []
    for run in range(args.runs):
        cpu.append(_run([], [], env))
        print(f"  run {run + 1}: {cpu[-1] * 1000:.0f} ms", flush=True)
        time.sleep(0.1)
    print(
        f"child CPU to its first answer: {statistics.median(cpu) * 1000:.0f} ms "
        f"(median of {args.runs})"
    )


if __name__ == "__main__":
    main()
