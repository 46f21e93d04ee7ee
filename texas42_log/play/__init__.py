"""Live play: :class:`~texas42_log.play.game.Game` (legal actions, push, undo,
live views), the table recorder's conversation, and random legal matches.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
