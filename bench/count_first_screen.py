"""What ``restwalk``'s start costs up to its first full screen, counted rather than timed.

``restwalk`` with no URL (the bundled mock, as ``make run``) runs in a pseudo-terminal
of 120x40 with Textual's own terminal driver, exactly as a person starts it, and ends
(``os._exit``) the moment its first screen has been drawn: when the app turns cyclic
garbage collection back on (its ``_collect_garbage_again``'s ``gc.freeze``, once the
browser screen and its start page are painted). What follows, the history's write and
the shutdown, is not counted; nor is the bundled mock's process (started with ``exec``).

- ``--instructions``: instructions executed (callgrind; stable on a shared machine
  where wall times are not: some 5 M instructions make 1 ms here), median of
  ``--runs``; ``--callgrind-out FILE`` keeps one run's profile for
  ``callgrind_annotate --inclusive=yes``;
- ``--cprofile FILE``: a cProfile of one run (read it with ``pstats``);
- ``--importtime FILE``: ``python -X importtime``'s lines of one run;
- ``--modules FILE``: the modules imported by the first screen, one a line;
- ``--imports``: instructions (callgrind, median of ``--runs``) to import those modules
  (listed by one run first) in a fresh interpreter, and nothing else: no terminal, no
  timer, no frame. The whole start's count moves by some 40 M between runs (how its
  frames and the start page's arrival fall); this one by under 1 M, for telling what a
  change to the imports saves;
- with none: the UI process's CPU time (user + system), median of ``--runs``.

    .venv/bin/python bench/count_first_screen.py [--instructions | --imports] [--runs 3]

Another checkout's restwalk: ``PYTHONPATH=CHECKOUT`` in front.
"""

from __future__ import annotations

import os
import sys

_INNER = "--inner"
_IMPORTS = "--import-inner"


def _inner(profile: str | None, importtime: str | None) -> None:
    """Run ``restwalk`` here (in the pseudo-terminal) and end once its first screen is drawn."""
    import gc

    if importtime:  # (-X importtime writes on file descriptor 2; Textual on sys.__stderr__)
        terminal = os.dup(2)
        os.dup2(os.open(importtime, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        sys.stderr = sys.__stderr__ = open(terminal, "w")  # noqa: SIM115
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    freeze = gc.freeze

    def drawn() -> None:
        freeze()
        if sys._getframe(1).f_code.co_name != "_collect_garbage_again":
            return  # (link finding's freeze: explorer.core.hypermedia._promote_young)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        modules = os.environ.get("FIRST_SCREEN_MODULES")
        if modules:
            with open(modules, "w") as out:
                out.write("".join(f"{name}\n" for name in sorted(sys.modules)))
        times = os.times()
        os.write(int(os.environ["FIRST_SCREEN_REPORT"]), f"{times.user + times.system}\n".encode())
        os._exit(0)

    gc.freeze = drawn
    from explorer.cli import main

    if profiler is not None:
        profiler.enable()
    main([])
    os._exit(1)  # (never drawn)


def _run(
    prefix: list[str], python_options: list[str], profile: str = "", importtime: str = ""
) -> float:
    """One start in a 120x40 pseudo-terminal; the UI's CPU seconds it reported."""
    import fcntl
    import pty
    import struct
    import subprocess
    import tempfile
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    report_read, report_write = os.pipe()
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "HOME": home,
            "XDG_DATA_HOME": f"{home}/data",
            "XDG_CONFIG_HOME": f"{home}/config",
            "TERM": "xterm-256color",
            "COLORTERM": "truecolor",
            "PYTHONHASHSEED": "0",  # the same dict layouts every run
            "FIRST_SCREEN_REPORT": str(report_write),
        }
        inner = [*prefix, sys.executable, *python_options, __file__, _INNER, profile, importtime]
        child = subprocess.Popen(
            inner,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            pass_fds=(report_write,),
            start_new_session=True,
        )
        os.close(slave)
        os.close(report_write)
        seen = b""
        deadline = time.monotonic() + 600
        while child.poll() is None:  # (the terminal drained, or the app would block)
            if time.monotonic() > deadline:
                child.kill()
                raise SystemExit("no first screen in 10 minutes")
            try:
                import select

                if select.select([master], [], [], 0.05)[0]:
                    seen = (seen + os.read(master, 65536))[-4000:]
            except OSError:
                break
        child.wait()
        os.close(master)
        reported = os.read(report_read, 100).decode().strip()
        os.close(report_read)
    if child.returncode != 0 or not reported:
        raise SystemExit(
            f"restwalk ended with {child.returncode} before its first screen; its terminal's "
            f"last text: {seen.decode(errors='replace')}"
        )
    return float(reported)


def _import_all(listing: str) -> None:
    """Import the modules named in the file ``listing``, after what ``restwalk`` blocks
    first (:mod:`explorer.cli.lean_imports`), as its start does."""
    import contextlib
    import importlib
    from pathlib import Path

    from explorer.cli import lean_imports

    lean_imports.without_httpx_cli()
    lean_imports.libraries_on_first_use()
    lean_imports.httpcore_without_h2()
    for name in Path(listing).read_text().split():
        if name != "__main__" and name not in sys.modules:
            with contextlib.suppress(ImportError):  # (httpx._main: blocked, as at the start)
                importlib.import_module(name)


def _instructions(out: str, listing: str = "") -> int:
    import re
    import subprocess
    from pathlib import Path

    log = Path(f"{out}.log")
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--log-file={log}"]
    if listing:
        env = {**os.environ, "PYTHONHASHSEED": "0"}  # (as _run: the same dict layouts)
        subprocess.run(
            [*valgrind, sys.executable, __file__, _IMPORTS, listing], env=env, check=True
        )
    else:
        _run(valgrind, [])
    found = re.search(r"Collected\s*:\s*(\d+)", log.read_text())
    log.unlink()
    if found is None:
        raise SystemExit("callgrind gave no count")
    return int(found.group(1))


def main() -> None:
    import argparse
    import compileall
    import shutil
    import statistics
    import tempfile
    from pathlib import Path

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count with callgrind")
    parser.add_argument("--callgrind-out", help="keep one run's callgrind profile here")
    parser.add_argument("--cprofile", help="write a cProfile of one run here")
    parser.add_argument("--importtime", help="write -X importtime's lines of one run here")
    parser.add_argument("--modules", help="write the modules imported by then here")
    parser.add_argument(
        "--imports", action="store_true", help="count importing those modules alone"
    )
    args = parser.parse_args()
    # (as pip compiles an installed package's: a module changed since would be compiled
    # by the run, and counted)
    root = Path(__file__).resolve().parent.parent
    for package in ("explorer", "mock_server"):
        compileall.compile_dir(root / package, quiet=1)
    if args.modules:
        os.environ["FIRST_SCREEN_MODULES"] = str(Path(args.modules).resolve())
    if args.cprofile:
        _run([], [], str(Path(args.cprofile).resolve()))
        return
    if args.importtime:
        _run([], ["-X", "importtime"], importtime=str(Path(args.importtime).resolve()))
        return
    if args.instructions or args.imports:
        if shutil.which("valgrind") is None:
            raise SystemExit("valgrind is not installed (apt-get install valgrind)")
        counts = []
        with tempfile.TemporaryDirectory() as tmp:
            listing = ""
            if args.imports:
                listing = os.environ["FIRST_SCREEN_MODULES"] = f"{tmp}/modules"
                _run([], [])
            for run in range(args.runs):
                out = args.callgrind_out if (run == 0 and args.callgrind_out) else f"{tmp}/cg"
                counts.append(_instructions(out, listing))
                print(f"  run {run + 1}: {counts[-1] / 1e6:,.1f} M instructions", flush=True)
        what = "to import the first screen's modules" if args.imports else "to the first screen"
        print(f"{what}: {statistics.median(counts) / 1e6:,.1f} M instructions")
        return
    cpu = [_run([], []) for _ in range(args.runs)]
    print(f"UI CPU to the first screen: {statistics.median(cpu):.3f} s (median of {args.runs})")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == _INNER:
        _inner(sys.argv[2] or None, sys.argv[3] or None)
    elif len(sys.argv) > 1 and sys.argv[1] == _IMPORTS:
        _import_all(sys.argv[2])
    else:
        main()
