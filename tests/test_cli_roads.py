"""`baccarat roads` (its stable JSON of docs/architecture.md, SVG export, bad input) and the roads after `baccarat shoe`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

import baccarat.cli  # noqa: F401  (registers the commands)
from baccarat.cli.app import app

runner = CliRunner()


def test_roads_json_follows_the_contract() -> None:
    result = runner.invoke(app, ["roads", "--results", "BPPTB", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # Big Road: B | P P (one tie on the second P) | B
    assert data["big_road"]["columns"] == [
        [{"result": "B", "ties": 0, "banker_pair": False, "player_pair": False, "natural": False}],
        [
            {"result": "P", "ties": 0, "banker_pair": False, "player_pair": False, "natural": False},
            {"result": "P", "ties": 1, "banker_pair": False, "player_pair": False, "natural": False},
        ],
        [{"result": "B", "ties": 0, "banker_pair": False, "player_pair": False, "natural": False}],
    ]
    assert all(len(column) == 6 for column in data["big_road"]["grid"])
    # Big Eye Boy: P row 2 v column 1 (p = 1): blue; B column 3 row 1: lengths 2 ≠ 1: blue
    assert data["big_eye_boy"] == "BB"
    assert data["small_road"] == "" and data["cockroach_pig"] == ""
    # column lengths 1, 2, 1. Next Banker goes down column 3 to row 2: BEB compares column 2
    # (p = 2): red; SR column 1 (p = 1), m = p + 1: blue; CP has no column 0: none.
    # Next Player starts column 4: BEB lengths 1 (column 3) ≠ 2 (column 2): blue; SR 1 = 1
    # (columns 3 and 1): red; CP none.
    assert data["ask"]["banker"] == {"big_eye_boy": "R", "small_road": "B", "cockroach_pig": None}
    assert data["ask"]["player"] == {"big_eye_boy": "B", "small_road": "R", "cockroach_pig": None}
    assert len(data["bead_plate"]) == 1 and [c["result"] for c in data["bead_plate"][0]] == list("BPPTB")
    assert data["stats"]["banker"] == 2 and data["stats"]["tie"] == 1


def test_roads_accepts_chinese_spaces_and_commas() -> None:
    letters = runner.invoke(app, ["roads", "--results", "BPPTB", "--json"])
    chinese = runner.invoke(app, ["roads", "--results", "莊, 閒 閒,和 莊", "--json"])
    assert chinese.exit_code == 0, chinese.output
    assert json.loads(chinese.stdout) == json.loads(letters.stdout)


def test_roads_bad_letter_names_the_position_exit_2() -> None:
    result = runner.invoke(app, ["roads", "--results", "BPXB"])
    assert result.exit_code == 2
    assert "unknown result 'X' at position 3" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_roads_empty_results_exit_2() -> None:
    result = runner.invoke(app, ["roads", "--results", " , "])
    assert result.exit_code == 2
    assert "no results given" in result.stderr


def test_roads_svg_file(tmp_path: Path) -> None:
    path = tmp_path / "roads.svg"
    result = runner.invoke(app, ["roads", "--results", "BPPTBBBPB", "--svg", str(path)])
    assert result.exit_code == 0, result.output
    assert "Wrote the scoreboards of 9 coups" in " ".join(result.stdout.split())
    root = ET.parse(path).getroot()
    marks = [e for e in root.iter() if e.attrib.get("class") == "mark"]
    # 9 beads, 8 Big Road entries; Big Eye Boy: B | PP | BBB | P | B ->
    # (2,2) blue; (3,1) 2≠1 blue; (3,2) p=2 red; (3,3) p=2 blue; (4,1) 3≠2 blue; (5,1) 1≠3 blue: 6 marks;
    # Small Road: (3,2) p=1 blue; (3,3) drop red; (4,1) 3≠1 blue; (5,1) 1≠2 blue: 4 marks;
    # Cockroach Pig: (4,1) needs column 0: none; (5,1) 1 = 1 red: 1 mark.
    assert len(marks) == 9 + 8 + 6 + 4 + 1


def test_roads_svg_and_json_together(tmp_path: Path) -> None:
    path = tmp_path / "roads.svg"
    result = runner.invoke(app, ["roads", "--results", "BP", "--svg", str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["results"] == "BP" and path.exists()


def test_roads_svg_unwritable_path_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["roads", "--results", "BP", "--svg", str(tmp_path / "missing" / "roads.svg")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_roads_terminal_output() -> None:
    result = runner.invoke(app, ["roads", "--results", "BPPTBBPPPP", "--width", "12"])
    assert result.exit_code == 0, result.output
    for title in ("Bead Plate", "Big Road", "Big Eye Boy", "Small Road", "Cockroach Pig", "Ask"):
        assert title in result.stdout
    assert "Long Player (長閒): Player won 4 coups in a row" in result.stdout


def test_roads_without_colour_tell_red_from_blue_and_print_the_key() -> None:
    result = runner.invoke(app, ["roads", "--results", "BPPTBBBP"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b[" not in out
    # Big Eye Boy B B R B B, Small Road B R B: both glyphs of each road appear
    assert {"○", "◎", "●", "◉"} <= set(out)
    assert "Ask 問路  if Banker 莊: ◎ ◉ ╱   if Player 閒: ○ ● ╲" in out
    assert "red, the pattern repeats:  ○ Big Eye Boy  ● Small Road  ╱ Cockroach Pig" in out
    assert "blue, the pattern breaks:  ◎ Big Eye Boy  ◉ Small Road  ╲ Cockroach Pig" in out
    assert "pairs: ▘ Banker  ▗ Player  ▚ both" in out


def test_shoe_json_has_the_roads_of_the_dealt_coups_without_demonstration() -> None:
    result = runner.invoke(app, ["shoe", "--decks", "1", "--seed", "7", "--demo", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    scored = [c for c in data["coups"] if not c["demo"]]
    assert len(scored) == len(data["coups"]) - 2
    roads = data["roads"]
    assert roads["results"] == "".join(c["winner"][0].upper() for c in scored)
    assert roads["stats"]["coups"] == len(scored) == data["summary"]["coups"]
    assert roads["stats"]["banker_pairs"] == sum(c["banker_pair"] for c in scored)
    assert {"big_road", "bead_plate", "big_eye_boy", "small_road", "cockroach_pig", "ask"} <= set(roads)


def test_shoe_ends_with_the_roads() -> None:
    result = runner.invoke(app, ["shoe", "--decks", "1", "--seed", "7"])
    assert result.exit_code == 0, result.output
    tail = result.stdout[result.stdout.index("cards left in the shoe") :]
    assert "Bead Plate 珠盤路" in tail and "Cockroach Pig" in tail
    assert "blue, the pattern breaks:" in tail[tail.index("Cockroach Pig") :]
