"""The terminal game (``baccarat play``): a Textual app for one player against the house.

The screen shows the variant's bet spots with their payouts and limits, the chips, the balance, the
cards turned one by one with the reason for each draw or stand, the result and each bet's payout,
the Big Road and the derived roads, the shoe (cards left, the cut card, the last coup) and the
history of coups. Every rule is the table's (:class:`~baccarat.play.session.GameSession`); a refused
action shows the table's message and changes nothing. The keys are in the footer; ``?`` opens the
help with the rules and the drawing table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Header, Static

from baccarat.bets import BetKind
from baccarat.cli.engine_cmds import render_cards
from baccarat.coup import Winner
from baccarat.errors import BaccaratError
from baccarat.play.rules import rules_renderable, spot_rows
from baccarat.play.session import CoupRecord, GameSession, RevealStep, format_money, player_message, reveal_steps
from baccarat.road_render import SIDE_STYLES, ask_text, big_road_text, derived_text
from baccarat.roads import DerivedRoad, Scoreboard
from baccarat.settlement import BetResult

__all__ = ["HelpScreen", "PlayApp", "roads_renderable"]

#: Keys that move around the screen; they are never "unknown".
_NAVIGATION = frozenset(
    {"up", "down", "left", "right", "pageup", "pagedown", "home", "end", "tab", "shift+tab", "enter", "escape"}
)
_RESULT_STYLE = {BetResult.WIN: "bold green", BetResult.LOSE: "red", BetResult.PUSH: "yellow", BetResult.STAY: "cyan"}
_SHORTCUT = {BetKind.BANKER: "b", BetKind.PLAYER: "p", BetKind.TIE: "t"}


def roads_renderable(board: Scoreboard, *, width: int = 24) -> RenderableType:
    """The Big Road, the three derived roads and the ask road of ``board`` (:mod:`baccarat.road_render`)."""
    smaller = RichTable.grid(padding=(0, 0))
    smaller.add_row(
        *(
            Panel(derived_text(board, road, width=max(1, width * 3 // 4)), title=f"{road.label} {road.chinese}")
            for road in (DerivedRoad.SMALL_ROAD, DerivedRoad.COCKROACH_PIG)
        )
    )
    return Group(
        Panel(big_road_text(board, width=width), title="Big Road 大路", expand=False),
        Panel(
            derived_text(board, DerivedRoad.BIG_EYE_BOY, width=width * 3 // 2),
            title=f"{DerivedRoad.BIG_EYE_BOY.label} {DerivedRoad.BIG_EYE_BOY.chinese}",
            expand=False,
        ),
        smaller,
        ask_text(board),
    )


class HelpScreen(ModalScreen[None]):
    """The rules, the drawing table, the payouts and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "dismiss", "Close help"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 96%; height: 94%; border: round $accent; background: $surface; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self._body = body

    def compose(self) -> ComposeResult:
        """The help text in a scrolling box, and the footer."""
        with VerticalScroll():
            yield Static(self._body, id="help-body")
        yield Footer()

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)


class PlayApp(App[None]):
    """The game. ``save`` is called after every coup and on quit; ``reveal_delay`` is the time between
    cards (0: all at once)."""

    TITLE = "Baccarat 百家樂"
    CSS = """
    #left { width: 54; }
    #middle { width: 1fr; }
    #right { width: 34; }
    #spots { height: auto; max-height: 18; }
    .box { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #message { color: $warning; }
    #history { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bet('banker')", "Banker"),
        Binding("p", "bet('player')", "Player"),
        Binding("t", "bet('tie')", "Tie"),
        Binding("minus", "chip(-1)", "Chip −"),
        Binding("plus,equals_sign", "chip(1)", "Chip +"),
        *(Binding(str(i), f"select_chip({i - 1})", f"Chip {i}", show=False) for i in range(1, 10)),
        Binding("u", "undo", "Undo"),
        Binding("r", "rebet", "Rebet"),
        Binding("c", "clear", "Clear"),
        Binding("d,space", "deal", "Deal"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        session: GameSession,
        *,
        save: Callable[[GameSession], None] | None = None,
        reveal_delay: float = 0.45,
    ) -> None:
        super().__init__()
        self.session = session
        self._save = save
        self.reveal_delay = reveal_delay
        self.save_error: BaccaratError | None = None
        self.message = ""
        self._steps: list[RevealStep] = []
        self._shown = 0
        self._record: CoupRecord | None = None

    # --- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Bet spots, chips and money on the left; cards, result and roads in the middle; shoe and history right."""
        yield Header()
        with Horizontal():
            with Vertical(id="left"):
                yield DataTable(id="spots", cursor_type="row", zebra_stripes=True)
                yield Static(id="chips", classes="box")
                yield Static(id="money", classes="box")
                yield Static(id="message", classes="box")
            with Vertical(id="middle"):
                yield Static(id="cards", classes="box")
                yield Static(id="result", classes="box")
                yield Static(id="roads")
            with Vertical(id="right"):
                yield Static(id="shoe", classes="box")
                yield Static(id="history", classes="box")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the bet spots and every panel."""
        variant = self.session.variant
        self.sub_title = f"{variant.title} {variant.title_zh} · {self.session.config.shoe.decks} decks"
        table = self.query_one("#spots", DataTable)
        for label, key in (("Key", "key"), ("Bet", "bet"), ("Pays (to 1)", "pays"), ("Limits", "limits")):
            table.add_column(label, key=key)
        table.add_column("Your bet", key="stake", width=10)
        for kind, pays, limits in spot_rows(self.session.config):
            table.add_row(_SHORTCUT.get(kind, ""), kind.label, pays, limits, "", key=kind.value)
        table.focus()
        self._show_cards([], [])
        self.query_one("#result", Static).update(Text("Place your bets, then deal (d).", style="dim"))
        self.refresh_panels()
        if self.session.history:
            self.show_message(f"Welcome back: {len(self.session.history)} coups played so far.")
        else:
            self.show_message("Choose a chip (- / + or 1–6), pick a spot (b, p, t or Enter on a row), then deal (d).")

    # --- panels -----------------------------------------------------------------------------------

    def refresh_panels(self) -> None:
        """Redraw the bets, chips, money, roads, shoe and history from the session."""
        session = self.session
        table = self.query_one("#spots", DataTable)
        bets = session.bets
        for kind in session.variant.bets:
            stake = bets.get(kind)
            table.update_cell(kind.value, "stake", format_money(stake) if stake else "")
        chips = Text("Chip ")
        for i, value in enumerate(session.chips):
            style = "bold black on yellow" if i == session.chip_index else "dim"
            chips.append(f" {i + 1}:{format_money(value)} ", style=style)
            chips.append(" ")
        self.query_one("#chips", Static).update(chips)
        self._refresh_money()
        roads = self.query_one("#roads", Static)
        columns = max(6, min(24, ((roads.size.width or 60) - 4) // 3))
        roads.update(roads_renderable(session.board, width=columns))
        status = session.shoe_status()
        shoe = Text("\n".join(status.describe()))
        if status.shoe_number:
            shoe.append("\n" + _bar(status.cards_left, status.size))
        self.query_one("#shoe", Static).update(Panel(shoe, title="Shoe 牌靴", border_style="dim"))
        self.query_one("#history", Static).update(_history(session.history))

    def _refresh_money(self, *, balance: int | None = None) -> None:
        session = self.session
        shown = session.balance if balance is None else balance
        money = Text()
        money.append("Balance ", style="bold")
        money.append(format_money(shown), style="bold green")
        money.append(f"   on the table {format_money(session.on_table)}")
        result = shown + session.on_table - session.bankroll
        money.append(f"\nsession {'+' if result >= 0 else ''}{format_money(result)}", style="dim")
        self.query_one("#money", Static).update(money)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the roads to the new width."""
        self.call_after_refresh(self.refresh_panels)

    def show_message(self, text: str, *, error: bool = False) -> None:
        """A line for the player: what just happened, or why an action was refused."""
        self.message = text
        self.query_one("#message", Static).update(Text(text, style="bold red" if error else ""))

    def _show_cards(self, steps: list[RevealStep], reasons: list[str]) -> None:
        last = steps[-1] if steps else None
        text = Text()
        for side, cards in (("Player 閒", last.player if last else ()), ("Banker 莊", last.banker if last else ())):
            text.append(f"{side}  ", style="bold blue" if side.startswith("Player") else "bold red")
            if cards:
                text.append_text(render_cards(cards))
                text.append(f"   = {sum(c.point for c in cards) % 10}", style="bold")
            else:
                text.append("–", style="dim")
            text.append("\n")
        for reason in reasons:
            text.append(f"• {reason}\n", style="italic")
        self.query_one("#cards", Static).update(text)

    # --- dealing ----------------------------------------------------------------------------------

    def _start_reveal(self, record: CoupRecord) -> None:
        self._record = record
        self._steps = reveal_steps(record.result)
        self._shown = 0
        self.query_one("#result", Static).update(Text("Dealing…", style="dim"))
        if self.reveal_delay <= 0:
            self._finish_reveal()
            return
        self._reveal_next()

    def _reveal_next(self) -> None:
        if self._record is None:
            return
        self._shown += 1
        shown = self._steps[: self._shown]
        self._show_cards(shown, [r for s in shown for r in s.reasons])
        if self._shown >= len(self._steps):
            self._finish_reveal()
        else:
            self.set_timer(self.reveal_delay, self._reveal_next)

    def _finish_reveal(self) -> None:
        record = self._record
        if record is None:
            return
        self._record = None
        self._show_cards(self._steps, [r for s in self._steps for r in s.reasons])
        self.query_one("#result", Static).update(_result(record))
        self.refresh_panels()
        if record.settlements:
            net = record.net
            self.show_message(
                f"Coup {record.coup_number}: you {'won' if net > 0 else 'lost' if net < 0 else 'broke even'}"
                f" {format_money(abs(net))}."
                if net
                else f"Coup {record.coup_number}: even."
            )
        else:
            self.show_message(f"Coup {record.coup_number} dealt with no bets.")
        if record.last:
            self.show_message(self.message + " That was the last coup of the shoe; a new shoe is shuffled.")

    # --- actions ----------------------------------------------------------------------------------

    def _act(self, action: Callable[[], str]) -> None:
        """Run one player action: finish a reveal first; show the table's message if it is refused."""
        self._finish_reveal()
        try:
            text = action()
        except BaccaratError as error:
            self.show_message(player_message(error), error=True)
            return
        self.refresh_panels()
        self.show_message(text)

    def place(self, kind: BetKind | str) -> None:
        """Put the chip in hand on ``kind``."""

        def go() -> str:
            chip = self.session.chip
            self.session.place(kind, chip)
            placed = self.session.undo_stack[-1][0][0]
            return f"{format_money(chip)} on {placed.label}: {format_money(self.session.bets[placed])} in all."

        self._act(go)

    def action_bet(self, kind: str) -> None:
        """Put the chip in hand on a bet (b, p, t)."""
        self.place(kind)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a bet spot puts the chip in hand on it."""
        if event.row_key.value is not None:
            self.place(event.row_key.value)

    def action_chip(self, step: int) -> None:
        """The next larger or smaller chip."""
        self._act(lambda: f"Chip in hand: {format_money(self.session.step_chip(step))}.")

    def action_select_chip(self, index: int) -> None:
        """Chip number ``index + 1``."""
        self._act(lambda: f"Chip in hand: {format_money(self.session.select_chip(index))}.")

    def action_undo(self) -> None:
        """Take back the last chips."""
        self._act(lambda: "Took back " + _group(self.session.undo()) + ".")

    def action_rebet(self) -> None:
        """Put back the last coup's bets."""
        self._act(lambda: "Bets back: " + _group(self.session.rebet()) + ".")

    def action_clear(self) -> None:
        """Take back every bet."""
        self._act(lambda: f"Took back {format_money(self.session.clear())}.")

    def action_deal(self) -> None:
        """No more bets: deal and settle a coup, then save."""
        self._finish_reveal()
        balance_before = self.session.balance
        try:
            record = self.session.deal()
        except BaccaratError as error:
            self.show_message(player_message(error), error=True)
            return
        self._save_now()
        self.refresh_panels()
        if self.reveal_delay > 0:
            self._refresh_money(balance=balance_before)
        self._start_reveal(record)

    def action_help(self) -> None:
        """The rules, the drawing table, the payouts and the keys."""
        keys = [
            (binding.key, binding.description)
            for binding in self._bindings_list()
            if binding.description and binding.show
        ] + [("1–9", "choose a chip"), ("Enter", "bet the chip on the highlighted spot")]
        self.push_screen(HelpScreen(rules_renderable(self.session.config, keys=keys)))

    async def action_quit(self) -> None:
        """Save and leave."""
        self._finish_reveal()
        self._save_now()
        self.exit()

    def _bindings_list(self) -> list[Binding]:
        return [b for b in self.BINDINGS if isinstance(b, Binding)]

    def _save_now(self) -> None:
        if self._save is None:
            return
        try:
            self._save(self.session)
        except BaccaratError as error:
            self.save_error = error
            self.show_message(f"not saved: {error}", error=True)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here gets a message (and changes nothing)."""
        if isinstance(self.screen, HelpScreen) or event.key in _NAVIGATION:
            return
        if event.key in self.active_bindings:
            return
        self.show_message(f"Unknown key {event.key!r}: the keys are in the footer, ? shows the help.", error=True)


def _group(group: tuple[tuple[BetKind, int], ...]) -> str:
    return ", ".join(f"{kind.label} {format_money(stake)}" for kind, stake in group)


def _bar(left: int, size: int, *, width: int = 30) -> str:
    filled = round(width * left / size) if size else 0
    return "█" * filled + "░" * (width - filled)


def _result(record: CoupRecord) -> Text:
    result = record.result
    winner = result.winner
    text = Text()
    headline = (
        "Tie 和"
        if winner is Winner.TIE
        else f"{winner.value.capitalize()} wins {'莊贏' if winner is Winner.BANKER else '閒贏'}"
    )
    text.append(f"{headline}  ", style=SIDE_STYLES[winner])
    text.append(f"Player {result.player.total} – Banker {result.banker.total}")
    notes = [
        n
        for n, on in (
            ("natural", result.natural),
            ("Player pair", result.player_pair),
            ("Banker pair", result.banker_pair),
        )
        if on
    ]
    if notes:
        text.append(f"  ({', '.join(notes)})", style="dim")
    for s in record.settlements:
        text.append(f"\n{s.kind.label} {format_money(s.stake)}: ")
        text.append(s.result.value, style=_RESULT_STYLE[s.result])
        if s.result is BetResult.WIN:
            text.append(f"  pays {format_money(s.paid)}")
            if s.commission:
                text.append(f" (commission {format_money(s.commission)})", style="dim")
        if s.result is not BetResult.STAY:
            net = s.returned - s.stake - s.owed
            text.append(f"  {'+' if net >= 0 else ''}{format_money(net)}", style="bold")
    if record.settlements:
        text.append(f"\nYou {'+' if record.net >= 0 else ''}{format_money(record.net)}", style="bold")
    return text


def _history(history: list[CoupRecord], *, last: int = 14) -> RenderableType:
    table = RichTable(title="History", header_style="bold", box=None, padding=(0, 1))
    table.add_column("#", justify="right")
    table.add_column("Result")
    table.add_column("P–B", justify="center")
    table.add_column("You", justify="right")
    for record in history[-last:][::-1]:
        winner = record.result.winner
        net = record.net
        table.add_row(
            f"{record.shoe_number}.{record.coup_number}",
            Text(winner.value.capitalize(), style=SIDE_STYLES[winner]),
            f"{record.result.player.total}–{record.result.banker.total}",
            (f"{'+' if net >= 0 else ''}{format_money(net)}") if record.settlements else "",
        )
    return table
