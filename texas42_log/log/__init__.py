"""The log format: what a recorded match is, and its replay.

The pydantic models and JSON Schema of the format, strict JSON, JSON pointer
positions, format upgrades, the replay of a log through the engine
(:mod:`.check`, :mod:`.stated`, :mod:`.replayed`), the text notation and the
other programs' formats (:mod:`.foreign`). Text in, documents out: no files.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
