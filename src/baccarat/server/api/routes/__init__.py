"""The routers of the table service, one module per resource: ``accounts``, ``tables``,
``rounds``, ``admin``, ``lab`` and ``websocket``."""
