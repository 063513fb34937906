"""The terminal game: one player against the house at a baccarat table.

:mod:`~baccarat.play.session` drives a :class:`~baccarat.table.Table` with one bettor;
:mod:`~baccarat.play.app` is the Textual game, :mod:`~baccarat.play.plain` the line-by-line mode for
scripts and screen readers, :mod:`~baccarat.play.save` the save file, :mod:`~baccarat.play.rules`
the help text generated from the engine's data and :mod:`~baccarat.play.money` the amounts people
read and type. Importing the package loads none of them: ``GameSession`` loads the table when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from baccarat.play.money import format_money, parse_money

if TYPE_CHECKING:
    from baccarat.play.session import GameSession

__all__ = ["GameSession", "format_money", "parse_money"]


def __getattr__(name: str) -> Any:
    if name == "GameSession":
        from baccarat.play.session import GameSession

        return GameSession
    raise AttributeError(f"module 'baccarat.play' has no attribute {name!r}")
