"""Run REDbot (the HTTP linter of redbot.org, the ``redbot`` package) on each URL given.

Prints one JSON object per line for each note REDbot makes, its subrequests'
(conditional, ranged, compressed) included: ``url``, ``level`` (good, info,
warning, bad), ``category`` and ``summary``. Run as a program, so that REDbot's
own event loop (thor) runs in a process of its own:
``python tests/mock_server/redbot_driver.py URL...``.
"""

from __future__ import annotations

import json
import sys
from configparser import ConfigParser

import thor
from redbot.resource import HttpResource


def main(urls: list[str]) -> None:
    """Check ``urls`` one after another, then stop REDbot's loop."""
    parser = ConfigParser()
    parser.read_dict({"redbot": {"enable_local_access": "True"}})  # 127.0.0.1 allowed
    config = parser["redbot"]

    def check(index: int) -> None:
        if index == len(urls):
            thor.stop()
            return
        url = urls[index]
        resource = HttpResource(config)
        resource.set_request(url)

        @thor.events.on(resource)
        def check_done() -> None:
            for note in resource.response.notes:
                for found in (note, *note.subnotes):
                    line = {
                        "url": url,
                        "level": found.level.value,
                        "category": str(found.category.value),
                        "summary": found.summary,
                    }
                    sys.stdout.write(json.dumps(line) + "\n")
            check(index + 1)

        resource.check()

    check(0)
    thor.run()


if __name__ == "__main__":
    main(sys.argv[1:])
