"""A tmux client in control mode: the benchmarks read the screen of the app they drive
through one such client, not a ``tmux capture-pane`` process for each read.

Shared by ``bench_tui.py`` and ``bench_exchange.py`` (run from ``bench/``, which is
first on ``sys.path``).
"""

from __future__ import annotations

import subprocess

__all__ = ["ControlClient"]


class ControlClient:
    """A tmux client in control mode, attached to session ``name`` read-only and told no
    pane output: the screen is asked for on its standard input, each answer read between
    ``%begin`` and ``%end`` lines (the blocks flagged 1, the answers to this client's own
    commands).

    Read with ``tmux capture-pane`` run each time, as bench_tui.py read it before, a
    poll every 5 ms starts 200 processes a second, each a tmux client attaching to the
    server: with the app on two cores that took a core's share from what is measured,
    and from restwalk more than from Posting, as restwalk's start is two processes (its
    UI and the bundled mock's). Asked here, a read costs the server some 0.1 ms.
    """

    def __init__(self, name: str) -> None:
        self._process = subprocess.Popen(
            ["tmux", "-C", "attach-session", "-t", name, "-f", "no-output,read-only"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, command: str) -> str:
        """The output of ``command``, run by the tmux server for this client."""
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        self._process.stdin.write(command + "\n")
        self._process.stdin.flush()
        lines: list[str] = []
        ours = False
        for line in self._process.stdout:
            if line.startswith("%begin "):
                ours, lines = line.split()[-1] == "1", []
            elif line.startswith(("%end ", "%error ")):
                if ours:
                    return "".join(lines)
            elif ours:
                lines.append(line)
        raise EOFError(f"tmux's control client ended: {command}")

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
