"""``python -m baccarat`` runs the command line."""

from baccarat.cli import main

main()
