"""What does saving back a big edited body of a ``.http`` request cost?

Saving a request opened from a ``.http`` file puts its ``{{variables}}`` back into
what the person edited (``explorer.core.httpfile.retemplate``): a diff of the text
as opened and as edited. This times it on a JSON body of 20,000 items (1.7 MB,
100,001 lines, 20,000 ``{{password}}``) left as it was, with one line edited,
with edits at its start, middle and end, and on the same items as one line (one
edit, and two at its ends); and,
as a peer, ``difflib.unified_diff`` of the same two texts (what a line diff costs).
Times are CPU seconds, best of three, so other processes count less.

Run: ``.venv/bin/python bench/bench_save_back.py [--items 20000]``
"""

from __future__ import annotations

import argparse
import difflib
import json
import time
from collections.abc import Callable

from explorer.core.httpfile.retemplate import retemplate

VALUES = {"password": "wonderland"}


def best(run: Callable[[], object], times: int = 3) -> float:
    """The least CPU time of ``times`` runs of ``run``."""
    spent = []
    for _ in range(times):
        start = time.process_time()
        run()
        spent.append(time.process_time() - start)
    return min(spent)


def cases(items: int) -> list[tuple[str, str, str, str]]:
    """(label, template, text as opened, text as edited) for each case."""
    rows = [{"id": i, "name": f"customer {i}", "password": "{{password}}"} for i in range(items)]
    template = json.dumps(rows, indent=2)
    old = template.replace("{{password}}", "wonderland")
    lines = old.split("\n")
    at = [i for i, line in enumerate(lines) if "customer" in line]
    one = lines.copy()
    one[at[len(at) // 4]] = one[at[len(at) // 4]].replace("customer", "client")
    spread = lines.copy()
    for index in (at[0], at[len(at) // 2], at[-1]):
        spread[index] = spread[index].replace("customer", "client")
    flat_template = json.dumps(rows)
    flat_old = flat_template.replace("{{password}}", "wonderland")
    flat_new = flat_old.replace('"customer 7"', '"client 7"', 1)
    last = f'"customer {items - 1}"'
    flat_apart = flat_new.replace(last, last.replace("customer", "client"))
    return [
        ("left as it was", template, old, old),
        ("one line edited", template, old, "\n".join(one)),
        ("start, middle, end edited", template, old, "\n".join(spread)),
        ("one-line body, one edit", flat_template, flat_old, flat_new),
        ("one-line body, edits apart", flat_template, flat_old, flat_apart),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20_000)
    args = parser.parse_args()
    print(f"{'case':28} {'MB':>5} {'retemplate':>11} {'kept':>7} {'unified_diff':>13}")
    for label, template, old, new in cases(args.items):
        written = retemplate(template, old, new, VALUES)
        ours = best(lambda t=template, o=old, n=new: retemplate(t, o, n, VALUES))
        peer = best(
            lambda o=old, n=new: list(
                difflib.unified_diff(o.splitlines(), n.splitlines(), lineterm="")
            )
        )
        kept = f"{written.count('{{password}}')}/{args.items}"
        print(f"{label:28} {len(old) / 1e6:5.2f} {ours:10.3f}s {kept:>7} {peer:12.3f}s")


if __name__ == "__main__":
    main()
