"""The engine: the game itself, pure (no I/O, no log format).

Tiles, trumps and suits, seats, the rule options and presets (R1–R19), the
auction, the trump declaration, playing out a hand, the actions of live play,
and the exact open-hand solver. Everything above is built on these; nothing
here imports a layer above. The hot modules are compiled by mypyc (setup.py).

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
