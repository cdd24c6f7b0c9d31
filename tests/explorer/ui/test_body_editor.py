"""BodyEditor: request bodies highlighted by pygments, without tree-sitter."""

from __future__ import annotations

from textual.app import App, ComposeResult

from explorer.ui.widgets.body_editor import BodyEditor


class EditorApp(App[None]):
    def __init__(self, text: str, syntax: str | None) -> None:
        super().__init__()
        self.text = text
        self.syntax = syntax

    def compose(self) -> ComposeResult:
        yield BodyEditor(self.text, syntax=self.syntax, id="body")


def _names(editor: BodyEditor, row: int) -> list[tuple[str, str]]:
    line = editor.document.get_line(row).encode()
    return [
        (line[start:end].decode(), name)
        for start, end, name in sorted(editor._highlights[row])
        if end is not None
    ]


async def test_json_keys_strings_numbers_and_constants_are_highlighted() -> None:
    app = EditorApp('{\n  "name": "Zoë",\n  "cost": 2.5,\n  "ok": true\n}', "json")
    async with app.run_test() as pilot:
        editor = app.query_one(BodyEditor)
        await pilot.pause()
        assert ('"name"', "json.label") in _names(editor, 1)
        assert ('"Zoë"', "string") in _names(editor, 1)  # byte offsets past a non-ASCII char
        assert ("2.5", "number") in _names(editor, 2)
        assert ("true", "boolean") in _names(editor, 3)


async def test_typing_updates_the_highlights() -> None:
    app = EditorApp("", "json")
    async with app.run_test() as pilot:
        editor = app.query_one(BodyEditor)
        editor.focus()
        await pilot.press(*'{"a": 1}')
        await pilot.pause()
        assert editor.text == '{"a": 1}'
        assert ('"a"', "json.label") in _names(editor, 0)
        assert ("1", "number") in _names(editor, 0)


async def test_xml_tags_and_plain_text() -> None:
    app = EditorApp('<customer id="1">Ann</customer>', "xml")
    async with app.run_test() as pilot:
        editor = app.query_one(BodyEditor)
        await pilot.pause()
        names = _names(editor, 0)
        assert any(name == "tag" for _, name in names)
        assert ('"1"', "string") in names
        editor.syntax = None
        assert editor._highlights == {} or not any(editor._highlights.values())
        assert editor.syntax is None
