"""The command line at its edges: files in the wrong encoding, sizes out of bounds, long computations,
a closed pipe, a port in use, help at 80 columns, repeated and empty options, and ``advise --follow``'s
news. Each bad input is one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import json
import os
import pty
import re
import shlex
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any, get_args

import pytest
import typer.main
from tests.test_advise import _Events
from typer.testing import CliRunner

from baccarat.cli import files
from baccarat.cli.app import COMMANDS, PIPE_CLOSED, app
from baccarat.cli.help import DESCRIPTION_MIN
from baccarat.cli.messages import option_name
from baccarat.cli.text import cell_width
from baccarat.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
HEX64 = "ab" * 32


def _one_line_error(result: Any, says: str) -> str:
    """The error of a refused command: exit 2, one line on stderr that says ``says``, no traceback."""
    assert result.exit_code == 2, result.output
    error = str(result.stderr).strip()
    assert error.startswith("error: ") and "\n" not in error, error
    assert says in error, error
    assert "Traceback" not in result.output
    return error


# -- files read through one helper -------------------------------------------------------------------

#: Every command option that reads a file the user names, as args with FILE in place of the path.
FILE_READERS = {
    "deal --paytable": ["deal", "--cards", "9S 8H KD 5C", "--paytable", "FILE", "--bet", "tie=1"],
    "odds --paytable": ["odds", "--paytable", "FILE"],
    "serve --config": ["serve", "--config", "FILE"],
    "play --resume --save-file": ["play", "--resume", "--save-file", "FILE", "--plain"],
    "verify FILE": ["verify", "FILE", "--commitment", HEX64],
}

#: Bad files: their bytes (``None``: a folder; absent: no file) and what the error says.
BAD_FILES = {
    "latin-1": ("name = 'caf\xe9'\n".encode("latin-1"), "is not UTF-8 text: byte 0xe9 on line 1"),
    "utf-16": ("name = 'x'\n".encode("utf-16"), "is UTF-16 text, not UTF-8"),
    "folder": (None, "cannot read the file"),
}


def _args(reader: str, path: Path) -> list[str]:
    return [str(path) if word == "FILE" else word for word in FILE_READERS[reader]]


@pytest.mark.parametrize("bad", list(BAD_FILES))
@pytest.mark.parametrize("reader", list(FILE_READERS))
def test_a_file_in_another_encoding_or_a_folder_is_one_line_and_exit_2(reader: str, bad: str, tmp_path: Path) -> None:
    content, says = BAD_FILES[bad]
    path = tmp_path / "given.toml"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    error = _one_line_error(runner.invoke(app, _args(reader, path)), says)
    assert str(path) in error
    if content is not None:
        assert "save the file as UTF-8" in error


@pytest.mark.parametrize("reader", list(FILE_READERS))
def test_a_missing_file_is_one_line_and_exit_2(reader: str, tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    says = "no saved game at" if reader.startswith("play") else "no such file"
    _one_line_error(runner.invoke(app, _args(reader, path)), says)


@pytest.mark.parametrize("reader", list(FILE_READERS))
def test_every_file_goes_through_the_one_helper(reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def refuse(path: Path | str, **options: Any) -> str:
        read.append(str(path))
        raise InputError("read by the helper")

    monkeypatch.setattr(files, "read_text", refuse)
    path = tmp_path / "game.json"
    path.write_text("{}", encoding="utf-8")
    _one_line_error(runner.invoke(app, _args(reader, path)), "read by the helper")
    assert read == [str(path)]


def test_a_utf8_file_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes((ROOT / "examples" / "my_table.toml").read_text(encoding="utf-8").encode("utf-8-sig"))
    result = runner.invoke(app, ["odds", "--paytable", str(path), "--json"])
    assert result.exit_code == 0, result.output


# -- sizes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["roads", "--results", "BPB", "--width", "100000"], "--width: 100000 is outside 1–200"),
        (["roads", "--results", "BPB", "--width", "0"], "--width: 0 is outside 1–200"),
        (["simulate", "--hands", "100000000000000"], "--hands: 100000000000000 is outside 1–10,000,000,000,000"),
        (["simulate", "--shoes", "0", "--strategy", "oracle"], "--shoes: 0 is outside 1–"),
        (["simulate", "--shoes", "0", "--shoe-figures"], "--shoes: 0 is outside 1–"),
        (["simulate", "--workers", "5000"], "--workers: 5000 is outside 1–4096"),
        (["simulate", "--strategy", "flat", "--session-shoes", "200000"], "--session-shoes: 200000 is outside"),
        (["simulate", "--strategy", "flat", "--bankroll", "1" + "0" * 13], "is more than 1,000,000,000,000"),
        (["count", "--shoes", "100000000"], "--shoes: 100000000 is outside 1–10,000,000"),
        (["count", "--levels", "7"], "--levels: 7 is outside 1–6"),
        (["count", "--bands", "21"], "--bands: 21 is outside 1–20"),
        (["verify", "--url", "http://127.0.0.1:9", "--round", "0"], "--round: 0 is less than 1"),
        (["play", "--plain", "--no-save", "--bankroll", "1" + "0" * 13], "is more than 1,000,000,000,000"),
        (["deal", "--cards", "9S 8H KD 5C", "--bet", "banker=" + "9" * 13], "is more than 1,000,000,000,000"),
    ],
)
def test_every_size_is_bounded(args: list[str], says: str) -> None:
    _one_line_error(runner.invoke(app, args), says)


def test_the_simulate_bounds_are_the_simulators() -> None:
    from baccarat.cli import simulate_cmd
    from baccarat.sim.runner import SimulationJob

    SimulationJob(seed=1, hands=simulate_cmd.MAX_HANDS)
    SimulationJob(seed=1, shoes=simulate_cmd.MAX_SHOES)
    for too_many in ({"hands": simulate_cmd.MAX_HANDS + 1}, {"shoes": simulate_cmd.MAX_SHOES + 1}):
        with pytest.raises(InputError):
            SimulationJob(seed=1, **too_many)  # type: ignore[arg-type]


def _readme_commands() -> list[list[str]]:
    """Every ``.venv/bin/baccarat …`` line of the README, as words (``$COMMITMENT``: 64 hex digits)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"^\.venv/bin/baccarat (.*)$", text, flags=re.MULTILINE)
    return [shlex.split(line.replace("$COMMITMENT", HEX64), comments=True) for line in lines]


@pytest.mark.parametrize("args", _readme_commands(), ids=" ".join)
def test_every_readme_example_is_within_the_bounds(args: list[str]) -> None:
    """Each example's options parse and convert (bounds, repeats, empty values), without running it."""
    group = typer.main.get_command(app)
    if args[0].startswith("-"):
        return
    command = group.get_command(typer.Context(group), args[0])  # type: ignore[attr-defined]
    command.make_context(args[0], list(args[1:]))


def test_the_readme_verify_example_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_cli_verify import COMMITMENT, _proof

    from baccarat.cli import server_cmds

    [args] = [words for words in _readme_commands() if words[0] == "verify"]
    asked: list[tuple[str, int]] = []

    def fetch(url: str, round_id: int) -> dict[str, Any]:
        asked.append((url, round_id))
        return _proof()

    monkeypatch.setattr(server_cmds, "_fetch_proof", fetch)
    args = [COMMITMENT if word == HEX64 else word for word in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert asked == [("http://127.0.0.1:8000", 42)] and "verified" in result.stdout


# -- progress ------------------------------------------------------------------------------------------

COUNT = ["count", "--bet", "dragon7", "--shoes", "20", "--sample-shoes", "20", "--oracle-shoes", "0", "--json"]


def test_count_shows_progress_on_a_terminal_and_keeps_its_json_clean() -> None:
    master, terminal = pty.openpty()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NO_COLOR", "TTY_"))}
    shown: list[bytes] = []

    def read() -> None:  # all along, so that the terminal never fills
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other end closed
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    done = subprocess.run(
        [sys.executable, "-m", "baccarat", *COUNT],
        stdout=subprocess.PIPE,
        stderr=terminal,
        env=env | {"TERM": "xterm"},
        check=False,
    )
    os.close(terminal)
    reader.join(timeout=10)
    os.close(master)
    assert done.returncode == 0
    seen = b"".join(shown)
    assert b"playing the counts" in seen and b"0:00:0" in seen  # what it does, and the time elapsed
    assert "dragon7" in json.loads(done.stdout)["bets"]


def test_nothing_extra_on_stderr_when_it_is_not_a_terminal() -> None:
    done = subprocess.run([sys.executable, "-m", "baccarat", *COUNT], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["shoes"] == 20


# -- a closed pipe -------------------------------------------------------------------------------------

PIPED = [
    ["shoe", "--seed", "1"],
    ["variants"],
    ["odds", "--decks", "6"],
    ["simulate", "--hands", "1000", "--seed", "1"],
    ["deal", "--cards", "AS 2H 3D KC 4S 8D"],
    ["roads", "--results", "BPPTBBBP"],
    ["--help"],
    ["simulate", "--help"],
]


@pytest.mark.parametrize("args", PIPED, ids=" ".join)
def test_a_closed_stdout_ends_the_command_quietly_with_141(args: list[str], tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write meets a closed pipe
    env = {**os.environ, "BACCARAT_CACHE_DIR": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "baccarat", *args], stdout=write, stderr=subprocess.PIPE, env=env, check=False
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr.decode()) == (PIPE_CLOSED, "")


def test_a_reader_that_stops_after_one_line_leaves_no_message() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "baccarat", "shoe", "--seed", "1", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().strip() == b"{"
        process.stdout.close()
        error = process.stderr.read()
        code = process.wait(timeout=60)
    assert code in (0, PIPE_CLOSED) and error == b""


# -- serve: the address first, then the URL ------------------------------------------------------------


def _in_use(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
        return False


def test_serve_refuses_a_port_in_use_before_printing_a_url() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    error = _one_line_error(result, f"port {port} is in use: choose another with --port")
    assert error == f"error: port {port} is in use: choose another with --port"
    assert "serving on" not in result.stdout


def test_serve_prints_its_url_while_it_holds_the_port(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from baccarat.cli import server_cmds
    from baccarat.server import main as server_main

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    held_while_printed: list[tuple[str, bool]] = []

    class Console:
        def print(self, text: str, **options: Any) -> None:
            held_while_printed.append((text, _in_use(port)))

    started: list[bool] = []
    monkeypatch.setattr(server_cmds, "console", Console)
    monkeypatch.setattr(server_main, "run_server", lambda **options: started.append(_in_use(options["port"])))
    result = runner.invoke(app, ["serve", "--port", str(port), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 0, result.output
    url = [held for text, held in held_while_printed if text.startswith(f"serving on http://127.0.0.1:{port}/")]
    assert url == [True]  # printed with the port bound
    assert started == [False]  # and released for the server to take


# -- help at 80 columns --------------------------------------------------------------------------------


def _help(name: str) -> str:
    result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return str(result.stdout)


@pytest.mark.parametrize("name", [entry.name for entry in COMMANDS])
def test_help_fits_80_columns_with_descriptions_at_least_40_wide(name: str) -> None:
    text = _help(name)
    assert max(cell_width(line) for line in text.splitlines()) <= 80
    rows = [line[2:-2] for line in text.splitlines() if line.startswith("│ ")]  # inside "│ " and " │": 76 columns
    assert rows
    for row in rows:
        # a name, two spaces or more, its description; or the description's next line; or a long name alone
        match = re.match(r"^\S.*?\s{2,}(\S)", row) or re.match(r"^\s+(\S)", row)
        if match is not None:
            assert 76 - match.start(1) >= DESCRIPTION_MIN, f"{name}: {row}"
    names = [row.split("  ")[0] for row in rows]
    assert not any("<" in name for name in names)  # no <int>, <list[str]>


def test_simulate_help_is_short_and_verify_help_names_a_plain_metavar() -> None:
    assert len(_help("simulate").splitlines()) < 80
    verify = _help("verify")
    assert "--link TEXT" in verify and "list[str]" not in verify


# -- advise's table and --follow's news ----------------------------------------------------------------


def test_every_column_of_the_advise_table_has_a_header() -> None:
    result = runner.invoke(app, ["advise", "--decks", "1", "--cards", "2S 3S"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if "Bet" in line and "EV" in line)
    names = [cell.strip() for cell in header.strip("┃ \n").split("┃")]
    assert names == ["Bet", "Pays", "Win", "EV", "+EV"]


@pytest.fixture
def followed_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A stand-in server: shoe 2 and its round 4 stored, round 5 live; the websocket answers on its own port."""
    import websockets.sync.client
    from websockets.sync.server import serve

    settled = {"type": "round_settled", "result": {"cards": ["9S", "8H", "KD", "5C"]}}
    _Events.events = [
        {"id": 1, "type": "shoe_started", "shoe": 2, "round_id": None, "config": {"decks": 8}},
        {"id": 2, **settled, "round_id": 40, "number": 4},
    ]
    live = [{"id": 3, **settled, "round_id": 50, "number": 5}]
    http = ThreadingHTTPServer(("127.0.0.1", 0), _Events)
    ws = serve(lambda connection: [connection.send(json.dumps(m)) for m in live], "127.0.0.1", 0)
    real_connect, port = websockets.sync.client.connect, ws.socket.getsockname()[1]
    monkeypatch.setattr(
        websockets.sync.client, "connect", lambda url, **options: real_connect(f"ws://127.0.0.1:{port}/", **options)
    )
    threads = [threading.Thread(target=server.serve_forever, daemon=True) for server in (http, ws)]
    for thread in threads:
        thread.start()
    yield f"http://127.0.0.1:{http.server_address[1]}"
    http.shutdown()
    ws.shutdown()


def test_follow_says_it_connected_and_which_round_each_update_follows(followed_table: str) -> None:
    result = runner.invoke(app, ["advise", "--follow", followed_table, "--table", "t1"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert f"connected to table t1 at {followed_table}" in result.stderr
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert lines.index("Table t1, shoe 2, after round 4") + 1 == lines.index("Next coup: 412 cards left, 4 seen")
    assert lines.index("Table t1, shoe 2, after round 5") + 1 == lines.index("Next coup: 408 cards left, 8 seen")
    as_json = runner.invoke(app, ["advise", "--follow", followed_table, "--table", "t1", "--json"])
    updates = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [(u["table"], u["shoe"], u["round"], u["round_id"]) for u in updates] == [("t1", 2, 4, 40), ("t1", 2, 5, 50)]


# -- repeated and empty options ------------------------------------------------------------------------


def _options() -> list[tuple[str, Any]]:
    group = typer.main.get_command(app)
    found = []
    for entry in COMMANDS:
        command = group.get_command(typer.Context(group), entry.name)  # type: ignore[attr-defined]
        found += [(entry.name, param) for param in command.params if param.param_type_name == "option"]
    return found


@pytest.mark.parametrize(
    ("name", "param"),
    [(name, param) for name, param in _options() if not param.multiple],
    ids=lambda value: value if isinstance(value, str) else option_name(value),
)
def test_an_option_that_takes_one_value_is_refused_when_repeated(name: str, param: Any) -> None:
    first, again = ([opt] if param.is_flag else [opt, "1"] for opt in (param.opts[0], param.opts[-1]))  # -c, --cards
    result = runner.invoke(app, [name, *first, *again])
    _one_line_error(result, f"{option_name(param)} is given more than once: give it once")


def test_repeated_removals_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_CACHE_DIR", "off")
    twice = runner.invoke(app, ["odds", "--decks", "1", "--remove", "AS", "--remove", "AH", "--json"])
    once = runner.invoke(app, ["odds", "--decks", "1", "--remove", "AS AH", "--json"])
    assert twice.exit_code == once.exit_code == 0, twice.output
    assert json.loads(twice.stdout) == json.loads(once.stdout)
    assert json.loads(twice.stdout)["cards"] == 50


def _takes_text(param: Any) -> bool:
    annotation = param.type_descriptor.annotation
    return (get_args(annotation) or (annotation,))[0] is str and not param.is_flag


@pytest.mark.parametrize(
    ("name", "param"),
    [(name, param) for name, param in _options() if _takes_text(param)],
    ids=lambda value: value if isinstance(value, str) else option_name(value),
)
def test_an_empty_value_is_refused(name: str, param: Any) -> None:
    _one_line_error(runner.invoke(app, [name, param.opts[-1], ""]), f"{option_name(param)}: the value is empty")


def test_an_empty_strategy_is_refused() -> None:
    result = runner.invoke(app, ["simulate", "--strategy", "", "--hands", "10"])
    _one_line_error(result, "--strategy: the value is empty; give one or leave the option out")
