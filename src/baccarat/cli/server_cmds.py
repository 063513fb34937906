"""``baccarat serve`` (the table service) and ``baccarat verify`` (check a round against its revealed seed
and its shoe's fairness chain, from the commitment published before the shoe)."""

from __future__ import annotations

import errno
import json
import re
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from baccarat.cli.app import PANEL_PLAY, cli_errors, command, console, emit_json
from baccarat.errors import InputError

__all__ = ["PROOF_FIELDS", "serve", "verify"]

#: What a round's proof must hold to be checked (:func:`baccarat.server.fairness.verify_round`).
PROOF_FIELDS = ("commitment", "server_seed", "client_seed", "config", "first_shoe_number", "coup_in_shoe", "cards")

_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


@command(PANEL_PLAY)
@cli_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL: sqlite:///path.db or postgresql://user@host/db (default ./data/baccarat.db)."),
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="Tables file (TOML); default: the lobby shipped with the package.")
    ] = None,
    access_log: Annotated[bool, typer.Option(help="Log every HTTP request.")] = False,
) -> None:
    """Run the table service: lobby, live tables over websockets, accounts and wallets.

    The address is taken before the server's URL is printed: a port in use is refused (exit status 2).

    Example: [bold]baccarat serve --port 8000[/]  (then open http://127.0.0.1:8000/ and /docs)
    """
    from baccarat.cli.files import read_text
    from baccarat.server.main import run_server
    from baccarat.server.settings import DEFAULT_DB_URL, load_lobby, normalise_db_url

    if config is not None:  # read here first, so that any fault of the file's is worded as the CLI words it
        read_text(config, what="tables file", hint="give the path of a TOML tables file, e.g. examples/my_tables.toml")
    lobby = load_lobby(config)
    url = normalise_db_url(db) if db else DEFAULT_DB_URL
    shown = url.split("@")[-1] if "@" in url else url
    with _listening(host, port):
        console().print(f"database: {shown}", highlight=False)
        console().print(f"tables: {', '.join(t.id for t in lobby.tables)}", highlight=False)
        console().print(f"serving on http://{host}:{port}/  (API docs at http://{host}:{port}/docs)", highlight=False)
        if lobby.admin_password is None:
            console().print("no admin: set BACCARAT_ADMIN_PASSWORD to enable the admin account", highlight=False)
    run_server(host=host, port=port, db_url=url, lobby=lobby, access_log=access_log)


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` as the server binds it (``SO_REUSEADDR``) and listening: proof that the
    address is free, held while the URL is printed and released just before the server takes it."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise InputError(
            f"cannot listen on {host!r}: {error.strerror}", hint="give an address of this machine with --host"
        ) from None
    family, kind, proto, _, address = infos[0]
    probe = socket.socket(family, kind, proto)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)
        probe.listen()
    except OSError as error:
        probe.close()
        if error.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use: choose another with --port") from None
        if error.errno == errno.EACCES:
            raise InputError(
                f"port {port} needs privileges to listen on", hint="choose a port above 1023 with --port"
            ) from None
        raise InputError(
            f"cannot listen on {host}:{port}: {error.strerror}", hint="give an address of this machine with --host"
        ) from None
    return probe


def _fetch_proof(url: str, round_id: int) -> dict[str, Any]:
    import httpx

    try:
        response = httpx.get(f"{url.rstrip('/')}/api/rounds/{round_id}", timeout=10)
    except httpx.HTTPError as error:
        raise InputError(f"cannot reach {url}: {error}", hint="check the server URL") from None
    if response.status_code != 200:
        raise InputError(f"the server answered {response.status_code}: {response.text[:200]}")
    proof = response.json().get("proof")
    if not isinstance(proof, dict):
        raise InputError("the server's answer has no proof for this round")
    return proof


@command(PANEL_PLAY)
@cli_errors
def verify(
    file: Annotated[
        str | None,
        typer.Argument(help="Round proof as JSON (a file, or - for stdin), e.g. the `proof` of /api/rounds/N."),
    ] = None,
    url: Annotated[str | None, typer.Option(help="Server URL, e.g. http://127.0.0.1:8000 (with --round).")] = None,
    round_id: Annotated[int | None, typer.Option("--round", help="Round id to fetch from --url.", min=1)] = None,
    commitment: Annotated[
        str | None,
        typer.Option(help="The commitment published before the round's shoe (64 hex digits), as you saw it."),
    ] = None,
    link: Annotated[
        list[str] | None,
        typer.Option(help="A chain link you saw published (a round_settled's chain_link); the chain must hold it."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check a round against the commitment published before its shoe (R37), computed here, not by the server.

    It checks the revealed server seed, the client seed made from the players' entropy, the shoe's
    chain of round records up to the round, the round's record (result, every payout) and its cards.

    Exit status 0: the round is what the commitment and the seeds give; 1: it is not; 2: the proof
    cannot be read or is incomplete, or --commitment is missing.

    Examples: [bold]baccarat verify --url http://127.0.0.1:8000 --round 42 --commitment 9f…[/],
    [bold]baccarat verify proof.json --commitment 9f…[/]
    """
    from baccarat.server.fairness_chain import CHAIN_FIELDS, verify_published

    if url is not None:
        if round_id is None:
            raise InputError("--url needs --round", hint="e.g. --url http://127.0.0.1:8000 --round 42")
        from baccarat.cli.progress import working

        with working(f"fetching round {round_id} from {url}"):
            proof = _fetch_proof(url, round_id)
    elif file is not None:
        from baccarat.cli.files import read_text

        text = read_text(file, what="proof", hint="give a round's proof as a JSON file, or - for standard input")
        try:
            data = json.loads(text)
        except ValueError:
            raise InputError(f"{file} is not valid JSON") from None
        if not isinstance(data, dict):
            raise InputError("the proof must be a JSON object")
        proof = data.get("proof", data) if isinstance(data.get("proof"), dict) else data
    else:
        raise InputError("give a proof file or --url and --round", hint="see baccarat verify --help")
    missing = [name for name in PROOF_FIELDS + CHAIN_FIELDS if proof.get(name) in (None, "")]
    if missing:
        raise InputError(
            f"the proof lacks {', '.join(missing)}",
            hint="a round's proof is complete once its shoe's server seed is revealed, after the shoe",
        )
    if commitment is None or not _HEX64.match(commitment):
        raise InputError(
            "--commitment must be the 64 hex digits published before the round's shoe"
            + ("" if commitment is None else f", not {commitment!r}"),
            hint="take it from the shoe_started message or GET /api/tables/{id}/entropy before the shoe",
        )
    bad = [given for given in link or [] if not _HEX64.match(given)]
    if bad:
        raise InputError(f"--link must be 64 hex digits, not {bad[0]!r}", hint="copy a round_settled's chain_link")
    result = verify_published(proof, commitment, links=link or [])
    if as_json:
        emit_json({"ok": result.ok, "reason": result.reason, "round_id": proof.get("round_id")})
    elif result.ok:
        console().print(
            f"[green]verified[/]: round {proof.get('round_id', '?')} is the coup the revealed seed deals, "
            "its record in the chain from the published commitment"
        )
    else:
        console().print(f"[red]NOT verified[/]: {result.reason}")
    if not result.ok:
        raise typer.Exit(code=1)
