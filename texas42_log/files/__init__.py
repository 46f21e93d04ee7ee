"""Files: from input names to validated matches, and back to files.

:mod:`.reader` is the one way anything is read (files, folders, globs, ``-``,
JSON Lines streamed, every format, sniffed or by name) with its limits;
:mod:`.formats` is the registry of formats (one :func:`~.formats.register`
call adds one); :mod:`.validate` is the verdict on one match's bytes;
:mod:`.outputs` writes atomically.

The supported names are those of :mod:`texas42_log` itself; the modules here are the
package's own, and may change between releases.
"""
