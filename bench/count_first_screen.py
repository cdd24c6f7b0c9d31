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
- with none: the UI process's CPU time (user + system), median of ``--runs``.

    .venv/bin/python bench/count_first_screen.py [--instructions] [--runs 3]

Another checkout's restwalk: ``PYTHONPATH=CHECKOUT`` in front.
"""

from __future__ import annotations

import os
import sys

_INNER = "--inner"


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


def _instructions(out: str) -> int:
    import re
    from pathlib import Path

    log = Path(f"{out}.log")
    _run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--log-file={log}"], [])
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
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("valgrind is not installed (apt-get install valgrind)")
        counts = []
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(args.runs):
                out = args.callgrind_out if (run == 0 and args.callgrind_out) else f"{tmp}/cg"
                counts.append(_instructions(out))
                print(f"  run {run + 1}: {counts[-1] / 1e6:,.1f} M instructions", flush=True)
        print(f"to the first screen: {statistics.median(counts) / 1e6:,.1f} M instructions")
        return
    cpu = [_run([], []) for _ in range(args.runs)]
    print(f"UI CPU to the first screen: {statistics.median(cpu):.3f} s (median of {args.runs})")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == _INNER:
        _inner(sys.argv[2] or None, sys.argv[3] or None)
    else:
        main()
