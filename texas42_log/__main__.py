"""``python -m texas42_log`` runs the ``texas42`` command."""

from .cli import main

main()
