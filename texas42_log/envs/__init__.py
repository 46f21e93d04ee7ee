"""The research environments: Texas 42 for agents that learn.

* :mod:`.encoding` — actions as numbers, and a seat's views as arrays (numpy)
* :mod:`.aec` — a PettingZoo AEC environment (``pip install 'texas42-log[rl]'``)
* :mod:`.spiel` — an OpenSpiel game, ``python_texas42`` (``pip install 'texas42-log[openspiel]'``)

Each is an optional extra: importing a module here without it is an
:class:`ImportError` that names the extra. Every observation is made from the
seat's own views (R25–R29), nothing else. Pure: no I/O.
"""
