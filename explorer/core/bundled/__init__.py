"""The bundled mock server, as ``restwalk`` with no URL starts it: the port it prefers
(:mod:`.port`, read by the mock's own process too, which imports no HTTP client) and
what was kept against it in an earlier run followed to where it answers now
(:mod:`.rebase`). Starting it is the command line's; this package opens no socket."""
