"""Corpora: many matches at once, on every core — validation
(:mod:`.validation`), conversion (:mod:`.conversion`) and analysis
(:mod:`.analysis`) of files, folders, globs and JSON Lines.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
