"""The terminal game (``baccarat play``): a Textual app for one player against the house.

The screen shows the variant's bet spots with their payouts, limits and the stake on each, the
chips, the balance, the cards turned one by one with the reason for each draw or stand, the result
and each bet's payout, the Big Road and the derived roads as wide as the window allows, the shoe
(cards left, the cut card, the last coup) and the history of coups. Every rule is the table's
(:class:`~baccarat.play.session.GameSession`); a refused action shows the table's message and
changes nothing. The keys are in the bar at the bottom; ``?`` opens the help with the rules and
the drawing table.

The layout follows the window (:func:`layout_for`): from 80×24 the table shows its spots, chips,
money, cards, result and Big Road; wider windows add the shoe and the history beside them, taller
ones the derived roads and the Bead Plate. A window smaller than :data:`MIN_SIZE` shows what size
the game needs instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from baccarat.bets import BetKind
from baccarat.coup import Winner
from baccarat.errors import BaccaratError
from baccarat.play.money import format_money
from baccarat.play.render import render_cards
from baccarat.play.rules import pays_brief, rules_renderable, spot_rows
from baccarat.play.session import CoupRecord, GameSession, RevealStep, player_message, reveal_steps
from baccarat.road_render import MARK_STYLES, SIDE_STYLES, bead_plate_text, big_road_text, derived_text, mark_glyph
from baccarat.roads import DerivedRoad, Scoreboard
from baccarat.settlement import BetResult

__all__ = ["MIN_SIZE", "HelpScreen", "Layout", "PlayApp", "key_help", "layout_for", "roads_renderable"]

#: The smallest window the table fits in (columns, rows).
MIN_SIZE = (80, 24)

#: Keys that move around the screen; they are never "unknown".
_NAVIGATION = frozenset(
    {"up", "down", "left", "right", "pageup", "pagedown", "home", "end", "tab", "shift+tab", "enter", "escape"}
)
_RESULT_STYLE = {BetResult.WIN: "bold green", BetResult.LOSE: "red", BetResult.PUSH: "yellow", BetResult.STAY: "cyan"}
_SHORTCUT = {BetKind.BANKER: "b", BetKind.PLAYER: "p", BetKind.TIE: "t"}
#: The keys in the bar at the bottom, as they are written there.
_BAR = (
    ("b", "Banker"),
    ("p", "Player"),
    ("t", "Tie"),
    ("d/Space", "Deal"),
    ("u", "Undo"),
    ("r", "Rebet"),
    ("c", "Clear"),
    ("−/+", "Chip"),
    ("?", "Help"),
    ("q", "Quit"),
)


@dataclass(frozen=True, slots=True)
class Layout:
    """How the table is laid out in a window: ``name`` is ``narrow``, ``medium`` or ``wide`` (the
    columns beside the cards), ``short`` drops the boxes' borders, ``fits`` is false below :data:`MIN_SIZE`."""

    name: str
    short: bool
    fits: bool

    @property
    def classes(self) -> list[str]:
        """The screen's CSS classes for this layout."""
        return [f"-{self.name}", *(["-short"] if self.short else []), *([] if self.fits else ["-tiny"])]


def layout_for(width: int, height: int) -> Layout:
    """The layout of a window of ``width`` × ``height`` cells.

    >>> layout_for(80, 24), layout_for(200, 50).name, layout_for(79, 30).fits
    (Layout(name='narrow', short=True, fits=True), 'wide', False)
    """
    name = "narrow" if width < 120 else "medium" if width < 170 else "wide"
    return Layout(name, short=height < 34, fits=width >= MIN_SIZE[0] and height >= MIN_SIZE[1])


def key_help(chips: int) -> list[tuple[str, str]]:
    """Every key of the game and what it does, as the help screen lists them.

    >>> key_help(6)[7]
    ('1–6', 'take chip 1 to 6 in hand')
    """
    return [
        ("b", "bet the chip in hand on Banker 莊"),
        ("p", "bet the chip in hand on Player 閒"),
        ("t", "bet the chip in hand on Tie 和"),
        ("↑ ↓ and Enter", "bet the chip in hand on the highlighted spot (any bet of the variant)"),
        ("d or Space", "no more bets: deal the coup"),
        ("u", "undo: take back the last chips placed"),
        ("r, c", "rebet the last coup's bets; clear every bet"),
        (f"1–{chips}", f"take chip 1 to {chips} in hand"),
        ("− and +", "a smaller or a larger chip"),
        ("a", "add funds (the starting amount) to your balance"),
        ("?", "this help (Escape closes it)"),
        ("q", "save the game and quit"),
    ]


def _panel(body: RenderableType, title: str, *, boxed: bool) -> RenderableType:
    if boxed:
        return Panel(body, title=title, expand=False, padding=(0, 1))
    return Group(Text(title, style="bold"), body)


#: Columns of the stake on a spot (up to 100,000).
_STAKE_WIDTH = 7


def spot_label(kind: BetKind, room: int) -> str:
    """A bet's name in ``room`` cells: English and Chinese, with Banker and Player shortened to B and P
    (then cut) when they do not fit.

    >>> spot_label(BetKind.PLAYER_DRAGON_BONUS, 30), spot_label(BetKind.PLAYER_DRAGON_BONUS, 21)
    ('Player Dragon Bonus 閒龍寶', 'P Dragon Bonus 閒龍寶')
    """
    label = kind.label
    if cell_len(label) > room:
        words = kind.english.split()
        if len(words) > 1 and words[0] in ("Banker", "Player"):
            words[0] = words[0][0]
        label = f"{' '.join(words)} {kind.chinese}"
    if cell_len(label) > room:
        cut = Text(label)
        cut.truncate(room, overflow="ellipsis")
        label = cut.plain
    return label


def ask_line(board: Scoreboard) -> Text:
    """The ask road (R36) on one short line: the mark each derived road would add after a Banker, and
    after a Player (``–``: none yet).

    >>> ask_line(Scoreboard("BPPB")).plain
    'Ask 問路  B: ○ ◉ –  P: ◎ ● –'
    """
    text = Text("Ask 問路 ", style="bold")
    for winner in (Winner.BANKER, Winner.PLAYER):
        text.append(f" {winner.letter}:", style=SIDE_STYLES[winner])
        for road, mark in board.ask(winner).items():
            text.append(" ")
            text.append(
                "–" if mark is None else mark_glyph(road, mark), style="dim" if mark is None else MARK_STYLES[mark]
            )
        text.append(" ")
    text.rstrip()
    return text


def roads_renderable(board: Scoreboard, *, width: int = 60, height: int = 40, boxed: bool = True) -> RenderableType:
    """The roads of ``board`` that fit in ``width`` × ``height`` cells, each as wide as the space allows:
    the Big Road first, then the ask road, Big Eye Boy, Small Road and Cockroach Pig, and the Bead Plate."""
    frame = 4 if boxed else 0
    rows = 8 if boxed else 7
    parts: list[RenderableType] = [
        _panel(big_road_text(board, width=max(4, (width - frame) // 3)), "Big Road 大路", boxed=boxed)
    ]
    left = height - rows
    if left >= 1:
        parts.append(ask_line(board))
        left -= 1
    eye = DerivedRoad.BIG_EYE_BOY
    if left >= rows:
        parts.append(
            _panel(
                derived_text(board, eye, width=max(4, (width - frame) // 2)), f"{eye.label} {eye.chinese}", boxed=boxed
            )
        )
        left -= rows
    if left >= rows:
        half = width // 2
        pair = RichTable.grid(padding=(0, 1 if not boxed else 0))
        pair.add_row(
            *(
                _panel(
                    derived_text(board, road, width=max(3, (half - frame - 1) // 2)),
                    f"{road.label} {road.chinese}",
                    boxed=boxed,
                )
                for road in (DerivedRoad.SMALL_ROAD, DerivedRoad.COCKROACH_PIG)
            )
        )
        parts.append(pair)
        left -= rows
    if left >= rows:
        parts.append(
            _panel(bead_plate_text(board, width=max(4, (width - frame) // 3)), "Bead Plate 珠盤路", boxed=boxed)
        )
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """The rules, the drawing table, the payouts and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "dismiss", "Close help"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 96%; height: 94%; border: round $accent; background: $surface; }
    HelpScreen #help-keys { dock: bottom; height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self._body = body

    def compose(self) -> ComposeResult:
        """The help text in a scrolling box, and how to close it."""
        with VerticalScroll():
            yield Static(self._body, id="help-body")
        yield Static(_bar([("Esc", "Close help"), ("↑ ↓", "Scroll")]), id="help-keys")

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help."""
        self.dismiss(result)


def _bar(keys: list[tuple[str, str]] | tuple[tuple[str, str], ...], width: int = 0) -> Text:
    """Keys and what they do, folded onto as many lines of ``width`` as they need (0: one line), a key
    never parted from its label.

    >>> print(_bar([("b", "Banker"), ("p", "Player"), ("q", "Quit")], width=18).plain)
    b Banker  p Player
    q Quit
    """
    text = Text()
    used = 0
    for key, label in keys:
        size = len(key) + 1 + len(label)
        if used and width and used + 2 + size > width:
            text.append("\n")
            used = 0
        elif used:
            text.append("  ")
            used += 2
        text.append(key, style="bold reverse")
        text.append(f" {label}")
        used += size
    return text


class PlayApp(App[None]):
    """The game. ``save`` is called after every coup and on quit; ``reveal_delay`` is the time between
    cards (0: all at once)."""

    TITLE = "Baccarat 百家樂"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; padding: 0 1; background: $primary-background; }
    #main { height: 1fr; }
    #left { width: 38; }
    #middle { width: 1fr; padding: 0 1; }
    #right { width: 30; }
    #spots { height: auto; max-height: 14; }
    .box { border: round $primary-darken-1; padding: 0 1; height: auto; }
    #roads { height: 1fr; }
    #history { height: 1fr; }
    #recent { display: none; height: 1fr; margin-top: 1; }
    Screen.-narrow #recent { display: block; }
    #message { height: auto; max-height: 2; padding: 0 1; color: $warning; }
    #keys { height: auto; padding: 0 1; background: $panel; }
    #too-small { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center; }
    Screen.-narrow #right { display: none; }
    Screen.-wide #left { width: 68; }
    Screen.-wide #right { width: 40; }
    Screen.-short .box { border: none; padding: 0; }
    Screen.-short #chips, Screen.-short #money { margin-top: 1; }
    Screen.-short #result { margin-top: 1; }
    Screen.-tiny #title, Screen.-tiny #main, Screen.-tiny #message, Screen.-tiny #keys { display: none; }
    Screen.-tiny #too-small { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bet('banker')", "Banker"),
        Binding("p", "bet('player')", "Player"),
        Binding("t", "bet('tie')", "Tie"),
        Binding("d,space", "deal", "Deal"),
        Binding("u", "undo", "Undo"),
        Binding("r", "rebet", "Rebet"),
        Binding("c", "clear", "Clear"),
        Binding("minus", "chip(-1)", "Chip −"),
        Binding("plus,equals_sign", "chip(1)", "Chip +"),
        *(Binding(str(i), f"select_chip({i - 1})", f"Chip {i}", show=False) for i in range(1, 10)),
        Binding("a", "add_funds", "Add funds", show=False),
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
        self.layout_mode = layout_for(*MIN_SIZE)
        self._steps: list[RevealStep] = []
        self._shown = 0
        self._record: CoupRecord | None = None

    # --- layout -----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The title; bet spots, chips and money left; cards, result and roads in the middle; shoe and
        history right; the message and the keys at the bottom."""
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield DataTable(id="spots", cursor_type="row", zebra_stripes=True)
                yield Static(id="chips", classes="box")
                yield Static(id="money", classes="box")
                yield Static(id="recent")
            with Vertical(id="middle"):
                yield Static(id="cards", classes="box")
                yield Static(id="result", classes="box")
                yield Static(id="roads")
            with Vertical(id="right"):
                yield Static(id="shoe", classes="box")
                yield Static(id="history", classes="box")
        yield Static(id="message")
        yield Static(_bar(_BAR, width=MIN_SIZE[0] - 2), id="keys")
        yield Static(id="too-small")

    def on_mount(self) -> None:
        """Lay the table out for the window and fill every panel."""
        self.query_one("#shoe", Static).border_title = "Shoe 牌靴"
        self._apply_layout(layout_for(self.size.width, self.size.height))
        self.query_one("#spots", DataTable).focus()
        self._show_cards([], [])
        self.query_one("#result", Static).update(Text("Place your bets, then deal (d).", style="dim"))
        self.refresh_panels()
        if self.session.history:
            self.show_message(f"Welcome back: {len(self.session.history)} coups played so far.")
        else:
            chips = len(self.session.chips)
            self.show_message(f"Choose a chip (− / + or 1–{chips}), bet (b, p, t, or Enter on a spot), then deal (d).")

    def on_resize(self, event: events.Resize) -> None:
        """Lay the table out again for the new size."""
        self._apply_layout(layout_for(event.size.width, event.size.height))
        self.call_after_refresh(self.refresh_panels)

    def _apply_layout(self, layout: Layout) -> None:
        previous = self.layout_mode
        self.layout_mode = layout
        screen = self.screen
        for name in ("-narrow", "-medium", "-wide", "-short", "-tiny"):
            screen.set_class(name in layout.classes, name)
        width, height = self.size
        self.query_one("#too-small", Static).update(
            f"The table needs a window of at least {MIN_SIZE[0]} × {MIN_SIZE[1]} characters.\n"
            f"This one is {width} × {height}: please enlarge it.\n\n"
            "(q quits; baccarat play --plain plays line by line in any window.)"
        )
        table = self.query_one("#spots", DataTable)
        if previous.name != layout.name or not table.columns:
            self._build_spots()

    def _build_spots(self) -> None:
        """The bet spots: key and bet, payout, your stake and (where there is room) the limits."""
        table = self.query_one("#spots", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        wide = self.layout_mode.name == "wide"
        config = self.session.config
        rows = [
            (kind, pays if wide and cell_len(pays) <= 18 else pays_brief(config, kind), limits)
            for kind, pays, limits in spot_rows(config)
        ]
        pays_width = max(4, *(cell_len(pays) for _, pays, _ in rows))
        limits_width = max(6, *(cell_len(limits) for _, _, limits in rows)) if wide else 0
        # the left column, less each column's padding, the scroll bar, the stake and the payout
        room = (68 if wide else 38) - 2 * (4 if wide else 3) - 2 - _STAKE_WIDTH - pays_width - limits_width
        table.add_column("Spot", key="bet", width=room)
        table.add_column("Pays", key="pays", width=pays_width)
        table.add_column("Stake", key="stake", width=_STAKE_WIDTH)
        if wide:
            table.add_column("Limits", key="limits", width=limits_width)
        for kind, pays, limits in rows:
            label = spot_label(kind, room - 3)
            cells = [f"{_SHORTCUT.get(kind, ' ')}  {label}", pays, ""]
            table.add_row(*cells, *([limits] if wide else []), key=kind.value)
        table.move_cursor(row=min(max(cursor, 0), len(rows) - 1))

    # --- panels -----------------------------------------------------------------------------------

    def refresh_panels(self) -> None:
        """Redraw the title, stakes, chips, money, roads, shoe and history from the session."""
        session = self.session
        table = self.query_one("#spots", DataTable)
        bets = session.bets
        for kind in session.variant.bets:
            stake = bets.get(kind)
            table.update_cell(kind.value, "stake", Text(format_money(stake), style="bold") if stake else "")
        self.query_one("#title", Static).update(self._title())
        self.query_one("#chips", Static).update(self._chips())
        self._refresh_money()
        roads = self.query_one("#roads", Static)
        width, height = roads.size
        boxed = not self.layout_mode.short
        roads.update(roads_renderable(session.board, width=width or 40, height=height or 8, boxed=boxed))
        self.query_one("#shoe", Static).update(self._shoe())
        for selector in ("#history", "#recent"):
            history = self.query_one(selector, Static)
            history.update(_history(session.history, last=max(1, (history.size.height or 16) - 3)))
        keys = self.query_one("#keys", Static)
        keys.update(_bar(self._keys(), width=(keys.size.width or self.size.width) - 2))

    def _keys(self) -> list[tuple[str, str]]:
        return [*_BAR[:-2], ("a", "Add funds"), *_BAR[-2:]] if self.session.out_of_money else list(_BAR)

    def _title(self) -> RenderableType:
        session = self.session
        variant = session.variant
        title = Text(f"Baccarat 百家樂 · {variant.title} {variant.title_zh} · {session.config.shoe.decks} decks")
        if self.layout_mode.name != "narrow":
            return title
        status = session.shoe_status()
        grid = RichTable.grid(expand=True)
        grid.add_column()
        grid.add_column(justify="right")
        shoe = f"shoe {status.shoe_number}: {status.cards_left}/{status.size} cards" if status.shoe_number else ""
        grid.add_row(title, Text(shoe, style="dim"))
        return grid

    def _chips(self) -> Text:
        session = self.session
        chips = Text("Chip", style="bold")
        for i, value in enumerate(session.chips):
            chosen = i == session.chip_index
            chips.append(" ")
            chips.append(
                f"[{format_money(value)}]" if chosen else format_money(value), style="bold reverse" if chosen else ""
            )
        return chips

    def _shoe(self) -> Text:
        status = self.session.shoe_status()
        shoe = Text("\n".join(status.describe()))
        if status.shoe_number:
            width = max(8, (self.query_one("#shoe", Static).size.width or 26) - 4)
            shoe.append("\n" + _bar_of(status.cards_left, status.size, width=width))
        return shoe

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
        if self.layout_mode.short and reasons:
            text.append("• " + "; ".join(reason.partition(":")[0] for reason in reasons), style="italic")
        else:
            for reason in reasons:
                text.append(f"• {reason}\n", style="italic")
        text.rstrip()
        self.query_one("#cards", Static).update(text)

    # --- dealing ----------------------------------------------------------------------------------

    def _start_reveal(self, record: CoupRecord) -> None:
        self._record = record
        self._steps = reveal_steps(record.result)
        self._shown = 0
        self.query_one("#result", Static).update(Text("Dealing…", style="dim"))
        self.show_message(f"Coup {record.coup_number}: no more bets.")
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
        net = record.net
        if not record.settlements:
            text = f"Coup {record.coup_number} dealt with no bets."
        elif net:
            text = f"Coup {record.coup_number}: you {'won' if net > 0 else 'lost'} {format_money(abs(net))}."
        else:
            text = f"Coup {record.coup_number}: you broke even."
        if record.last:
            text += " That was the last coup of the shoe; a new shoe is shuffled."
        self.show_message(text)
        if self.session.out_of_money:
            self._out_of_money()

    def _out_of_money(self) -> None:
        session = self.session
        self.show_message(
            f"You have {format_money(session.balance)}, less than the smallest bet ({format_money(session.smallest_bet)}): "
            f"press a to add {format_money(session.start)}, or q to quit.",
            error=True,
        )

    # --- actions ----------------------------------------------------------------------------------

    def _act(self, action: Callable[[], str]) -> None:
        """Run one player action: finish a reveal first; show the table's message if it is refused."""
        self._finish_reveal()
        try:
            text = action()
        except BaccaratError as error:
            self.show_message(player_message(error, funds_hint="bet less, or press a to add funds"), error=True)
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

    def action_add_funds(self) -> None:
        """Bring the starting amount to the table again."""
        amount = self.session.start
        self._act(lambda: f"Added {format_money(amount)}: balance {format_money(self.session.add_funds(amount))}.")
        self._save_now()

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
        self.push_screen(HelpScreen(rules_renderable(self.session.config, keys=key_help(len(self.session.chips)))))

    async def action_quit(self) -> None:
        """Save and leave."""
        self._finish_reveal()
        self._save_now()
        self.exit()

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
        name = event.character if event.character and event.character.isprintable() else event.key
        self.show_message(f"Unknown key {name!r}: the keys are in the bar below, ? shows the help.", error=True)


def _group(group: tuple[tuple[BetKind, int], ...]) -> str:
    return ", ".join(f"{kind.label} {format_money(stake)}" for kind, stake in group)


def _bar_of(left: int, size: int, *, width: int) -> str:
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
        if s.result is not BetResult.STAY:
            net = s.returned - s.stake - s.owed
            text.append(f" {'+' if net >= 0 else ''}{format_money(net)}", style="bold")
        if s.commission:
            text.append(f" (commission {format_money(s.commission)})", style="dim")
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
