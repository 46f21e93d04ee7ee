"""``python -m texas42_log`` runs the ``texas42`` command."""

from .entry import main

main()
