"""The review board: a log in the browser, live (``texas42 board``, docs/board.md).

* :mod:`.state` — the log the board holds: where it is read from and saved to, its
  version (a counter), who may see what (tokens), the views sent, and the save that
  merges everyone's comments into the file on disk.
* :mod:`.ask` — the open-hand and fair analysis of a hand, computed in a child process
  on demand, with its progress, a cancel, and a cache while the board runs.
* :mod:`.page` — the page: the HTML viewer's script and style with the board's own,
  inlined, allowed by hash.
* :mod:`.server` — the HTTP server (tornado): the token, ``Host`` and ``Origin``
  checks, the routes, the refusals logged one line each.

The server decides what a page may see, through the views; a page never receives the
log. Above :mod:`texas42_log.corpus` and below the CLI: it does the board's own I/O.
"""
