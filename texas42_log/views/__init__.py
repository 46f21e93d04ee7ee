"""Views: what one observer may see at one moment of a hand (R25–R29).

The view model, the visibility rules, and the views drawn as text (in every
language of :mod:`.locales`), SVG and a self-contained HTML page; redaction.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
