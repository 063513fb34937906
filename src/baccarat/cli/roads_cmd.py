"""``baccarat roads``: the five scoreboards, the ask road and the shoe statistics of a run of results."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from baccarat.cli.app import PANEL_ENGINE, cli_errors, command, console, emit_json
from baccarat.errors import InputError
from baccarat.road_render import render_scoreboard, render_svg
from baccarat.road_stats import shoe_stats
from baccarat.roads import DEFAULT_WIDTH, Scoreboard, parse_results

__all__ = ["MAX_WIDTH", "roads", "roads_json"]

#: The most drawn columns ``--width`` shows: wider than any terminal (a shoe fills some 60 columns of
#: the Big Road), and drawn in well under a second.
MAX_WIDTH = 200


def roads_json(board: Scoreboard) -> dict[str, Any]:
    """The JSON of ``baccarat roads --json`` (docs/architecture.md, "Stable interfaces"), with the shoe statistics added under ``stats``."""
    return board.to_dict() | {"stats": shoe_stats(board).to_dict()}


@command(PANEL_ENGINE)
@cli_errors
def roads(
    results: Annotated[
        str,
        typer.Option(
            "--results", "-r", help='Results in order: B P T or 莊 閒 和, e.g. "BPPTB" (spaces and commas ignored).'
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print JSON (a stable interface: fields are added, never renamed or removed)."),
    ] = False,
    svg: Annotated[Path | None, typer.Option("--svg", help="Write the scoreboards as an SVG file.")] = None,
    width: Annotated[
        int, typer.Option(help="Drawn columns shown in the terminal (the latest ones).", min=1, max=MAX_WIDTH)
    ] = DEFAULT_WIDTH,
    chinese: Annotated[bool, typer.Option(help="Write 莊/閒/和 in the SVG's beads instead of B/P/T.")] = False,
) -> None:
    """Draw the scoreboards (路單) of a run of results: Bead Plate, Big Road, Big Eye Boy, Small Road, Cockroach Pig.

    Example: [bold]baccarat roads --results "BPPTBBPB"[/]
    """
    parsed = parse_results(results)
    if not parsed:
        raise InputError("no results given", hint='give results in order, e.g. --results "BPPTB"')
    board = Scoreboard(parsed, width=width)
    if svg is not None:
        try:
            svg.write_text(render_svg(board, chinese=chinese), encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot write {svg}: {error.strerror}", hint="give a writable file path") from None
    if as_json:
        emit_json(roads_json(board))
        return
    if svg is not None:
        console().print(f"Wrote the scoreboards of {len(board)} coups to {svg}")
        return
    console().print(render_scoreboard(board))
