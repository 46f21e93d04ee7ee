"""The HTML viewer: ``viewer.html``, ``viewer.css`` and ``viewer.js``.

Plain HTML, CSS and JavaScript with no build step and no network access.
``texas42 render`` inlines all three and the views of one observer into a
single file that works from ``file://``. The review board (``texas42 board``) serves
the same page live, with ``board-parts.html``, ``board.js`` and ``board.css`` added
(:mod:`texas42_log.board.page`). Installed as the package ``texas42_log.viewer``
(see ``pyproject.toml``).
"""
