"""The table service: FastAPI app, websocket hub, storage (SQLAlchemy + Alembic), ledger, auth.

Start it with ``baccarat serve``; see ``docs/api.md`` for the REST and websocket API.
"""

from baccarat.server.settings import DEFAULT_DB_URL, Dealing, Lobby, TableSpec, load_lobby

__all__ = ["DEFAULT_DB_URL", "Dealing", "Lobby", "TableSpec", "load_lobby"]
