"""Run the service with uvicorn: used by ``baccarat serve`` and by ``python -m baccarat.server``.

``python -m baccarat.server --port 8000 --db URL --config tables.toml`` starts faster than the
full CLI (it imports only the server), which the crash test relies on.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from dataclasses import replace

from baccarat.errors import InputError
from baccarat.server.settings import DEFAULT_DB_URL, Lobby, load_lobby, normalise_db_url

__all__ = ["main", "run_server"]


def run_server(*, host: str, port: int, db_url: str, lobby: Lobby, access_log: bool = False) -> None:
    """Serve until interrupted (``BACCARAT_HTTP_RATE`` / ``BACCARAT_WS_RATE`` override the rate limits,
    for load benchmarks: ``BACCARAT_HTTP_RATE`` also lifts the per-address limits on registrations
    and websocket connections to that rate)."""
    import uvicorn

    from baccarat.server.api.ws_protocol import FramedProtocol
    from baccarat.server.app import create_app
    from baccarat.server.service import ServiceOptions

    rates = {
        name: float(os.environ[variable])
        for name, variable in (
            ("http_requests_per_second", "BACCARAT_HTTP_RATE"),
            ("ws_messages_per_second", "BACCARAT_WS_RATE"),
        )
        if variable in os.environ
    }
    options = ServiceOptions(db_url=db_url, lobby=lobby, **rates)  # type: ignore[arg-type]
    if "http_requests_per_second" in rates:
        rate = rates["http_requests_per_second"]
        options = replace(options, http_burst=int(2 * rate), lobby=_lifted(lobby, rate))
    if "ws_messages_per_second" in rates:
        options = replace(options, ws_burst=int(2 * rates["ws_messages_per_second"]))
    application = create_app(options)
    _quiet_collector()
    uvicorn.run(
        application,
        host=host,
        port=port,
        ws=FramedProtocol,
        ws_max_size=65_536,
        ws_per_message_deflate=False,  # compressing every small message costs more than it saves
        access_log=access_log,
        log_level="info",
        timeout_graceful_shutdown=5,
    )


def _lifted(lobby: Lobby, rate: float) -> Lobby:
    """The lobby with its per-address registration and connection limits at ``rate`` a second."""
    policy = replace(
        lobby.policy,
        registrations_per_address=max(1, int(2 * rate)),
        registration_refill_seconds=1.0 / rate if rate > 0 else lobby.policy.registration_refill_seconds,
        ws_connects_burst=max(1, int(2 * rate)),
        ws_connects_per_second=max(rate, 0.001),
    )
    return replace(lobby, policy=policy)


def _quiet_collector() -> None:
    """Keep the cyclic garbage collector from pausing a busy table for a tenth of a second.

    A server's heap is mostly long-lived: the modules and the app made at start-up, then the open
    connections (a few hundred objects each). A full collection walks all of it (about 0.15 s
    with 500 clients, every second or two under load). What start-up made is frozen out of the
    collector's sight, and full collections wait for a thousand younger ones (minutes) instead of ten.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


def main(argv: list[str] | None = None) -> None:
    """Parse ``--host --port --db --config`` and serve."""
    parser = argparse.ArgumentParser(prog="python -m baccarat.server", description="Run the baccarat table service.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--config", default=None)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    url = normalise_db_url(args.db) if args.db else DEFAULT_DB_URL
    try:
        lobby = load_lobby(args.config)
    except InputError as error:
        hint = f"\n  hint: {error.hint}" if error.hint else ""
        print(f"error: {error.message}{hint}", file=sys.stderr)
        raise SystemExit(2) from None
    run_server(host=args.host, port=args.port, db_url=url, lobby=lobby)
