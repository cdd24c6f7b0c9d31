"""The help screen: every key of every screen, and how to walk an API with them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.keys import format_key
from textual.screen import ModalScreen
from textual.widgets import Markdown

from explorer.ui.explain_text import literal
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import NUMBER_RULE

WALK = """\
## Walking an API

1. The status line at the top says what the last answer means and **which key to press
   next**. Press **e** for the full explanation of any status.
2. The links panel on the right lists every link the response offers, numbered.
   Type a link's number to follow it (**1** **2** for link 12; **1** then **Enter** for
   link 1), or press **f** to move into the panel and **Enter** on any row. Links marked
   ✎ need input: a template opens a small form, an action opens the composer already
   filled in (edit the JSON body, then **ctrl+s** sends).
3. **401 Unauthorized** means the server wants a credential: press **a** to log in.
   A page that only reads (GET, HEAD) is sent again with it; a POST, PUT... opens the
   composer, so nothing is done twice behind your back. **x** logs out, **s** lists
   credentials, cookies and the headers kept per server.
4. **alt+left** / **alt+right** (or Backspace) go back and forward; the breadcrumb
   under the URL bar shows the path taken.
5. **c** composes any request from the current one: method, query, headers (names
   complete as you type; → accepts), body, API version and style, credential.
6. **b h w t** show and move into the Body, Headers (Enter explains a header),
   Raw (the exact text on the wire) and Trip (redirects, timings, size, HTTP version).
7. **v** picks the API version followed links and composed requests ask for, and how:
   URI segment, query parameter, header or media-type parameter, by the name the API
   uses (on the mock, v2 turns an address into an object). A URL typed in the URL bar
   is sent as typed. **Escape** cancels a request on its way; in the URL bar it puts
   the page's URL back and returns to the page.
8. **/** searches the body, raw or headers tab as you type (**n** / **N**: next and
   previous match); **|** filters a JSON body with JSONPath or jq; **W** wraps long
   lines; **y** copies the body, a line, a header, a link's URL, or the request as curl,
   HTTPie or the text of a `.http` file; **d** saves the body to a file.
   **+** adds the next page's items below the ones shown (its `next` link), up to 100
   pages; back shows them as they were.
9. **S** saves the request to a `.http` file (the format of the JetBrains HTTP Client
   and VS Code's REST Client; F2 in the composer too), **o** opens one of a file's
   requests in the composer with its `{{variables}}` put in, **E** picks their
   environment (`http-client.env.json` beside the file). `restwalk run FILE.http`
   sends them from a shell.
10. **H** opens the history: every exchange kept, searchable (`GET 4xx customers`);
    Enter shows a kept response again, and **r** there sends it again. **m** bookmarks
    the page as the links that lead to it from the entry point; **'** walks one again,
    whatever URLs those links carry now.
11. Paste a curl command line in the URL bar (or the composer's URL field): the composer
    opens on its request. **O** lists the API's OpenAPI operations (its `service-desc`);
    Enter opens one in the composer.
12. **g** shows the map of the API so far: the resources visited and the links not
    followed yet, by relation (Enter opens one); there **m** follows every safe link
    from the API's root (**e**: from the page shown), and **a** audits the API against
    the REST constraints. **D** compares this page with another of the history, or with
    itself in another API version, side by side: what breaks a client is marked red.
13. **l** opens the learning screen: every status code, header, method and REST
    constraint, searchable. **ctrl+p** then `explain 404` or `explain ETag` works too,
    and `follow next#2` or `follow child[title=books]` follows the link those words
    name, as `restwalk request --follow` does.
"""


def _key_label(key: str) -> str:
    """``question_mark,f1`` as a person types it: ``? / f1``."""
    return " / ".join(_one_key(part.strip()) for part in key.split(","))


def _one_key(key: str) -> str:
    shown = format_key(key)  # question_mark -> ?; names (ctrl+l, backspace) stay words
    return shown if len(shown) == 1 and shown.isascii() else key


#: Actions the help's "Everywhere in Textual" table says (Tab moves between fields): a
#: screen binding Tab to them, to move on before the keys typed after it, adds nothing.
_SAID_EVERYWHERE = frozenset({"app.focus_next", "app.focus_previous"})


def bindings_table(title: str, bindings: Iterable[BindingType]) -> str:
    """A Markdown table of ``bindings`` (key, what it does)."""
    rows: list[str] = []
    seen: set[str] = set()
    for item in bindings:
        binding = item if isinstance(item, Binding) else Binding(*item)
        if binding.action in _SAID_EVERYWHERE:
            continue
        description = binding.tooltip or binding.description or binding.action
        if binding.action.startswith("digit("):
            if "digit" in seen:
                continue
            seen.add("digit")
            rows.append(f"| 0 … 9 | {NUMBER_RULE} |")
            continue
        key = _key_label(binding.key).replace("|", "\\|")  # (a | would end the cell)
        rows.append(f"| {key} | {description} |")
    return f"## {title}\n\n| key | does |\n|---|---|\n" + "\n".join(rows) + "\n"


class HelpScreen(ModalScreen[None]):
    """Every key, grouped by where it works; Escape closes."""

    #: The app's action this screen is: its key is not offered here.
    OWN_ACTIONS = frozenset({"help"})

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(
        self, sections: list[tuple[str, Iterable[BindingType]]], problems: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self.sections = sections
        #: Problems with the person's files met this session (config.toml, the history).
        self.problems = tuple(problems)

    def compose(self) -> ComposeResult:
        text = "# restwalk keys\n\n"
        if self.problems:
            text += "## Problems met in this session\n\n"
            text += "".join(f"- {literal(problem)}\n" for problem in self.problems) + "\n"
        text += WALK
        for title, bindings in self.sections:
            text += "\n" + bindings_table(title, bindings)
        text += (
            "\n## Everywhere in Textual\n\n| key | does |\n|---|---|\n"
            "| Tab / shift+Tab | Move between fields and panels |\n"
            "| ↑ ↓ PgUp PgDn Home End | Move and scroll in the focused view |\n"
            "| Enter | Choose the row under the cursor, or send the URL bar |\n"
            "| mouse | Click, scroll and select work everywhere |\n"
        )
        with VerticalScroll():
            yield Markdown(text, id="help-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
