"""The terminal game: one player against the house at a baccarat table.

:mod:`~baccarat.play.session` drives a :class:`~baccarat.table.Table` with one bettor;
:mod:`~baccarat.play.app` is the Textual game, :mod:`~baccarat.play.plain` the line-by-line mode for
scripts and screen readers, :mod:`~baccarat.play.save` the save file and :mod:`~baccarat.play.rules`
the help text generated from the engine's data.
"""

from __future__ import annotations

from baccarat.play.session import GameSession, format_money, parse_money

__all__ = ["GameSession", "format_money", "parse_money"]
