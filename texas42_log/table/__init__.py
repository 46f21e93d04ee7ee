"""``texas42 table``: a match played from each seat's page, refereed by the server
(docs/table.md). :mod:`.referee` holds the match and writes the log; :mod:`.bots` plays
the seats given to bots; :mod:`.server` and :mod:`.page` are the wire and the page.
The server needs tornado (the ``board`` extra)."""
