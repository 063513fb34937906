"""``python -m baccarat.server``: see :mod:`baccarat.server.main`."""

from baccarat.server.main import main

main()
