"""The HTTP and websocket front door of the table service: one router per resource.

``routes/`` holds the routers (accounts, tables, rounds, admin, lab, websocket); ``deps`` the
shared ``Annotated`` dependencies; ``models`` the request and response bodies; ``problems`` the
refusals (a stable ``code``, the ``rule``, ``params`` and the English ``detail``); ``actions`` the
path of a table action to the process that runs the table; ``context`` what one application holds.
The application itself is assembled by :func:`baccarat.server.app.create_app`.
"""
