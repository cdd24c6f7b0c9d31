"""The explorer's UI-free core: no Textual import, no terminal, fully unit-tested."""
