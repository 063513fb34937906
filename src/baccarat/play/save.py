"""The saved game: one JSON file that rebuilds a :class:`~baccarat.play.session.GameSession` exactly.

The file holds the table's settings and event log (the table's own replay format,
:meth:`baccarat.table.Table.replay`), the seed of the shoes and where the shoe in play stands
(shoe number, coups dealt, position). Resuming shuffles the same shoe again from the seed, deals the
coups already played (and checks they are the coups the log recorded), then replays the log: the
balance, the bets on the table, the history, the roads and the cards still to come are those of the
session that was saved.

>>> import tempfile, pathlib
>>> from baccarat.play.session import GameSession
>>> session = GameSession(seed="42")
>>> _ = session.place("player", 10_000); _ = session.deal()
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> save_session(session, path)
>>> again = load_session(path)
>>> again.balance == session.balance, again.dealer.shoe.position == session.dealer.shoe.position
(True, True)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from baccarat.bets import BetKind
from baccarat.errors import BaccaratError, InputError
from baccarat.play.money import format_money
from baccarat.play.session import GameSession, seeded_dealer
from baccarat.table import Table
from baccarat.table_config import TableConfig
from baccarat.table_events import CoupSettled

__all__ = [
    "FORMAT",
    "VERSION",
    "SaveError",
    "default_save_path",
    "farewell",
    "load_session",
    "save_session",
    "session_data",
    "session_from_text",
]

#: The ``format`` field of a save file, and its version.
FORMAT, VERSION = "baccarat-play", 1

_FILE_NAME = "play-session.json"


class SaveError(InputError):
    """A save file that cannot be read or does not rebuild its session."""


def default_save_path() -> Path:
    """Where the game is saved by default: ``baccarat/play-session.json`` in the user's data directory.

    ``$XDG_DATA_HOME`` (else ``~/.local/share``) on Unix, ``%APPDATA%`` on Windows.
    """
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "baccarat" / _FILE_NAME


def farewell(session: GameSession, saved_to: Path | None) -> str:
    """What the game says on leaving: the balance, the session's result and where the game was saved.

    >>> print(farewell(GameSession(seed="1"), None))
    Balance 10,000 (+0 this session). The game was not saved.
    """
    money = f"Balance {format_money(session.balance)}"
    if session.on_table:
        money += f" and {format_money(session.on_table)} on the table"
    result = session.result
    text = f"{money} ({'+' if result >= 0 else ''}{format_money(result)} this session)."
    if saved_to is None:
        return f"{text} The game was not saved."
    again = "baccarat play --resume" + ("" if saved_to == default_save_path() else f" --save-file {saved_to}")
    return f"{text} Saved to {saved_to}; {again} continues it."


def session_data(session: GameSession) -> dict[str, Any]:
    """The save file's JSON data."""
    return {"format": FORMAT, "version": VERSION, **session.save_data()}


def save_session(session: GameSession, path: Path) -> None:
    """Write the session to ``path`` (whole or not at all: a new file replaces the old one)."""
    text = json.dumps(session_data(session), ensure_ascii=False, indent=1)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise SaveError(
            f"cannot save the game to {path}: {error.strerror}", hint="give a writable --save-file"
        ) from None


#: What to say of a save file that is not there.
NO_SAVED_GAME = "no saved game at {path}", "start a new game without --resume"


def load_session(path: Path) -> GameSession:
    """The session saved in ``path`` (the command line reads the file itself and calls :func:`session_from_text`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        message, hint = NO_SAVED_GAME
        raise SaveError(message.format(path=path), hint=hint) from None
    except OSError as error:
        raise SaveError(f"cannot read {path}: {error.strerror}", hint="give a readable --save-file") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not UTF-8 text", hint=_NEW_GAME) from None
    return session_from_text(text, source=str(path))


def session_from_text(text: str, *, source: str) -> GameSession:
    """The session that a save file's text describes (``source``: where it was read, for the messages)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveError(f"{source} is not JSON ({error.msg}, line {error.lineno})", hint=_NEW_GAME) from None
    return restore_session(data, source=source)


_NEW_GAME = "start a new game without --resume, or give another --save-file"


def restore_session(data: Any, *, source: str = "<data>") -> GameSession:
    """The session that :func:`session_data` describes."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{source} is not a saved baccarat game", hint=_NEW_GAME)
    if data.get("version") != VERSION:
        raise SaveError(
            f"{source} is a version {data.get('version')!r} save; this is version {VERSION}", hint=_NEW_GAME
        )
    try:
        return _restore(data)
    except BaccaratError as error:
        raise SaveError(f"{source} does not rebuild its game: {error.message}", hint=_NEW_GAME) from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise SaveError(f"{source} is damaged: {type(error).__name__} {error}", hint=_NEW_GAME) from None


def _restore(data: dict[str, Any]) -> GameSession:
    config = TableConfig.from_dict(data["config"])
    seed = str(data["seed"])
    shoe = data["shoe"]
    number, coups, position = int(shoe["shoe_number"]), int(shoe["coups"]), int(shoe["position"])
    events = list(data["events"])
    dealer = seeded_dealer(config, seed, first_shoe_number=max(1, number))
    dealt = []
    if number:
        dealer.new_shoe()
        dealt = [dealer.next_coup() for _ in range(coups)]
    table = Table.replay(config, events, dealer=dealer)
    recorded = [e for e in table.events if isinstance(e, CoupSettled) and e.shoe_number == number]
    if (
        table.state.shoe_number != number
        or table.state.coup_number != coups
        or (dealer.shoe.position if dealer.shoe else 0) != position
        or [(c.result.player.cards, c.result.banker.cards) for c in dealt] != [(e.player, e.banker) for e in recorded]
    ):
        raise SaveError("the shoe rebuilt from the seed differs from the coups recorded", hint=_NEW_GAME)
    session = GameSession.restored(
        table=table, dealer=dealer, seed=seed, bankroll=int(data["bankroll"]), chips=[int(c) for c in data["chips"]]
    )
    session.start = int(data.get("start", session.bankroll))
    session.select_chip(int(data.get("chip", session.chip_index)))
    session.last_bets = tuple((BetKind(b["bet"]), int(b["stake"])) for b in data.get("rebet", []))
    session.undo_stack = [tuple((BetKind(b["bet"]), int(b["stake"])) for b in group) for group in data.get("undo", [])]
    return session
