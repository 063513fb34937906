"""The registry of error codes: every refusal the engine and the table server give, by its stable code.

A refusal carries a code (``"limit.min"``), the docs/rules.md id it enforces where one applies, the
values its message names (``params``) and its English text (see
:meth:`baccarat.errors.BaccaratError.problem`). Clients translate a refusal by its code and
params; the English text may be reworded, a code never changes. Codes are lowercase, dotted
``area.reason``.

Each entry gives the HTTP status a REST answer has with that code, the rule when it is always the
same, the params it names, and when it is given. docs/api.md lists them all.

>>> CODES["limit.min"]
'a stake below the table minimum of its bet spot'
>>> REGISTRY["limit.banker_multiple"].rule, STATUS["limit.banker_multiple"], REGISTRY["limit.banker_multiple"].params
('R22', 400, ('bet', 'stake', 'minimum', 'suggestion'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CODES", "CODE_BY_STATUS", "CODE_PATTERN", "REGISTRY", "STATUS", "ErrorCode"]

#: What a code looks like: ``area.reason``, lowercase words joined by ``_``.
CODE_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One code: the HTTP status it is answered with, when it is given, its rule (when always the
    same) and the names of its params."""

    code: str
    status: int
    meaning: str
    rule: str | None = None
    params: tuple[str, ...] = ()


_E = ErrorCode

_ENGINE = (
    # --- generic: the defaults of the base classes ------------------------------------------------
    _E("input.invalid", 400, "input that cannot be accepted (no more precise code applies)"),
    _E("procedure.not_now", 409, "an action the rules do not allow now (no more precise code applies)"),
    _E("config.invalid", 400, "table settings that are not valid", params=("setting",)),
    # --- bettors and seats ------------------------------------------------------------------------
    _E("bettor.not_at_table", 400, "the bettor is not at the table: join it first", params=("bettor",)),
    _E("bettor.invalid", 400, "a bettor id that is empty", params=("bettor",)),
    _E("bettor.already_at_table", 400, "the bettor is already at the table", params=("bettor",)),
    _E("seat.invalid", 400, "a seat that is not at this table", "R20", ("seat", "seats")),
    _E("seat.taken", 400, "the seat is taken by another bettor", "R20", ("seat", "bettor")),
    _E("seat.already_yours", 400, "the bettor already sits at that seat", "R20", ("bettor", "seat")),
    _E("seat.no_standing", 400, "this table takes no standing bettors: choose a free seat", "R20"),
    _E("seat.bets_open", 409, "the bettor cannot move seats with bets on the table", "R20", ("bettor", "seat")),
    _E("bets.open", 409, "the bettor cannot leave with bets on the table", params=("bettor", "bets")),
    _E("variant.not_offered", 409, "a variant this table does not play", "R28", ("bettor", "variant", "variants")),
    _E("variant.same", 409, "the bettor already plays that variant", "R28", ("bettor", "variant")),
    _E("variant.bets_open", 409, "the bettor cannot switch variant with a bet open", "R28", ("bettor", "variant")),
    # --- money ------------------------------------------------------------------------------------
    _E("amount.not_whole", 400, "an amount that is not a whole number of minor units", "R32", ("what", "amount")),
    _E("amount.too_small", 400, "an amount below the least allowed", params=("what", "amount", "least")),
    _E(
        "balance.insufficient",
        400,
        "a stake over what the bettor has available at the table (commission owed is not available, R27)",
        params=("bettor", "stake", "available", "owed"),
    ),
    _E(
        "cash_out.insufficient",
        400,
        "a cash-out over what the bettor has available (the balance less commission owed)",
        "R27",
        ("bettor", "amount", "available", "balance", "owed"),
    ),
    _E("cash_out.nothing", 400, "the bettor has nothing to cash out", params=("bettor",)),
    _E(
        "wallet.insufficient",
        400,
        "a buy-in over what the user's wallet holds",
        params=("bettor", "wallet", "amount"),
    ),
    # --- bets and limits --------------------------------------------------------------------------
    _E("bet.unknown", 400, "a bet name that is not a bet", params=("bet",)),
    _E("bet.invalid", 400, "bet text that is not KIND=STAKE", params=("bet",)),
    _E("stake.invalid", 400, "a stake that is not a positive whole number", params=("bet", "stake")),
    _E(
        "bet.not_on_menu",
        400,
        "a bet the bettor's variant (or the paytable) does not offer",
        params=("bettor", "bet", "variant", "paytable"),
    ),
    _E("bet.not_placed", 400, "the bettor has no such bet on the table", params=("bettor", "bet")),
    _E(
        "bet.over_stake",
        400,
        "taking back more than the bet's stake",
        params=("bettor", "bet", "stake", "amount"),
    ),
    _E("bet.no_other_side", 400, "only a Banker or Player bet can be switched to the other side", params=("bet",)),
    _E(
        "bet.other_side_taken",
        400,
        "the bettor already has a bet on the other side",
        params=("bettor", "bet", "other"),
    ),
    _E("bet.id_reused", 400, "a bet id already used for another bet", params=("bet_id",)),
    _E("spot.invalid", 400, "a bet spot that is not on this table", params=("spot", "seats")),
    _E(
        "spot.not_allowed",
        400,
        "a bet on a spot that is not the bettor's own",
        "R20",
        ("bettor", "spot", "seat", "owner"),
    ),
    _E("limit.refused", 400, "a stake that breaks a table limit (R21, R22)"),
    _E("limit.min", 400, "a stake below the table minimum of its bet spot", "R21", ("bet", "stake", "minimum")),
    _E("limit.max", 400, "a stake above the table maximum of its bet spot", "R21", ("bet", "stake", "maximum")),
    _E(
        "limit.banker_multiple",
        400,
        "a Banker bet that is not a multiple of the table minimum",
        "R22",
        ("bet", "stake", "minimum", "suggestion"),
    ),
    _E(
        "limit.net_exposure",
        400,
        "the difference between all Banker and all Player bets would exceed the table's limit (數紅)",
        "R21",
        ("side", "difference", "limit"),
    ),
    _E(
        "tie.not_permitted",
        409,
        "a change to a bet kept in action after a tie that the house does not permit",
        "R24",
        ("bettor", "bet", "action", "allowed"),
    ),
    # --- the round --------------------------------------------------------------------------------
    _E("round.wrong_phase", 409, "an action the round's phase does not allow", params=("round", "phase")),
    _E("round.in_progress", 409, "a round is in progress: finish or void it first", params=("round", "phase")),
    _E("round.not_in_progress", 409, "no round is in progress: there is nothing to void", "R18"),
    _E("round.not_dealing", 409, "no coup is being dealt: cards come after betting closes", params=("phase",)),
    _E("betting.closed", 409, "betting is not open (closed, or not open yet)", params=("round", "phase", "action")),
    _E("betting.demo_coup", 409, "a demonstration coup takes no bets", "R5", ("coup", "action")),
    # --- the shoe ---------------------------------------------------------------------------------
    _E("shoe.invalid", 400, "shoe settings that are not valid"),
    _E("shoe.not_in_play", 409, "no shoe is in play", "R6"),
    _E("shoe.empty", 409, "the shoe has no card left"),
    _E("shoe.finished", 409, "the shoe is finished: not enough cards for a coup"),
    _E("shoe.not_pre_dealt", 409, "the layout exists only in pre-dealt mode"),
    _E("shoe.continuous", 409, "a continuous shuffler has no end of shoe"),
    _E("cut_card.automatic", 409, "a table that deals its own shoe sees the cut card itself"),
    _E("cut_card.continuous", 409, "a continuous shuffler has no cut card", "R8"),
    _E("cut_card.already_out", 409, "the cut card already came out in this shoe", "R6", ("coup",)),
    # --- cards ------------------------------------------------------------------------------------
    _E("card.invalid", 400, "text that is not a card (rank + suit, e.g. AS, 10h, K♣)", params=("card", "position")),
    _E("card.exhausted", 400, "a card the shoe holds no more of: all were dealt", "R18", ("card", "count")),
    _E("card.not_due", 409, "a card for a position that is not due", params=("position", "due")),
    _E("card.required", 409, "a dealer-entry table needs the card that is due", "R18", ("position",)),
    _E("card.none_to_correct", 409, "no card of the coup is entered yet: nothing to correct", "R18"),
    _E("burn.not_dealer_shoe", 409, "the table burns its own shoe, or shuffles continuously", "R4"),
    _E(
        "burn.not_now", 409, "the burn comes once, after a new shoe and before its first coup", "R4", ("coup", "burned")
    ),
    _E("burn.no_card", 400, "the table's burn method turns no card", "R4", ("method",)),
    _E("burn.card_required", 400, "method (b) needs the turned card: its value is how many are burned", "R4"),
    _E("card.same", 400, "a correction that names the card already there", "R18", ("position", "card")),
    _E(
        "card.reveal_first",
        409,
        "the next card waits until the face-down cards are turned",
        "R23",
        ("position", "side", "holder"),
    ),
    _E("coup.voided", 409, "the coup was voided"),
    _E("coup.not_finished", 409, "the coup is not finished: a card is due", params=("due",)),
    _E("coup.too_few_cards", 400, "too few cards to finish the coup", params=("due",)),
    # --- squeeze ----------------------------------------------------------------------------------
    _E("squeeze.none_face_down", 409, "no card waits to be turned", "R23", ("side",)),
    _E("squeeze.order", 409, "Player's cards are turned before Banker's", "R11", ("side", "first")),
    _E(
        "squeeze.time_left",
        409,
        "the squeezer still has time: the dealer turns the cards when it is up",
        "R23",
        ("holder", "side", "seconds"),
    ),
    _E(
        "squeeze.not_yours",
        409,
        "someone else turns that side's cards",
        "R23",
        ("bettor", "side", "holder"),
    ),
    _E("squeeze.already_yours", 409, "the bettor already squeezes that side's cards", "R23", ("bettor", "side")),
    _E("squeeze.standing", 409, "standing bettors never squeeze", "R23", ("bettor",)),
    _E("squeeze.no_bet", 409, "the squeeze goes only to a seated bettor with a bet", "R23", ("bettor",)),
    _E("side.invalid", 409, "a side that is not player or banker", params=("side",)),
    # --- variants, paytables, table time, snapshots -----------------------------------------------
    _E("variant.unknown", 400, "a variant name that is not a variant", params=("variant",)),
    _E("variant.invalid", 400, "a variant whose paytable does not pay its bets", params=("variant",)),
    _E("paytable.unknown", 400, "a paytable name that is not a built-in paytable", params=("paytable",)),
    _E("paytable.invalid", 400, "a paytable that is not valid", params=("paytable", "field")),
    _E("clock.backwards", 400, "a time earlier than the table's last event", params=("now", "clock")),
    _E("snapshot.format", 400, "a snapshot of another format version", params=("format", "expected")),
    _E("snapshot.invalid", 400, "data that is not a table's snapshot", params=("problem",)),
)

_SERVER = (
    _E("auth.required", 401, "no session token (none, or blank): log in first"),
    _E(
        "auth.invalid",
        401,
        "a wrong name or password, or a session token that is not valid, has expired or has ended "
        "(log-out, password change: a websocket authenticated with it is then closed)",
    ),
    _E(
        "auth.forbidden",
        403,
        "the user's role does not allow this action (or a websocket opened from a page of another origin)",
        params=("role",),
    ),
    _E("account.suspended", 403, "the account is suspended by the house: it cannot log in", params=("name",)),
    _E(
        "limit.daily_loss",
        409,
        "a bet that would take the player's loss today (UTC) past their daily loss limit",
        params=("limit", "lost", "stake", "left"),
    ),
    _E("account.self_excluded", 403, "the player excluded themselves from play until `until`", params=("until",)),
    _E(
        "limits.loosen_by_house",
        403,
        "a player may only tighten their own limits: the house loosens them",
        params=("fields",),
    ),
    _E("dealer.not_assigned", 403, "the dealer is not assigned to this table", params=("table", "dealer")),
    _E("dealer.not_found", 404, "no dealer of that name", params=("name",)),
    _E("player.not_found", 404, "no player of that name", params=("name",)),
    _E(
        "auth.rate_limited",
        429,
        "too many failed log-ins for the name or from the address: locked for a while, longer after each",
        params=("retry_after",),
    ),
    _E(
        "request.rate_limited",
        429,
        "too many requests, messages, connections or registrations (per address): slow down",
        params=("retry_after",),
    ),
    _E("request.invalid", 422, "a request that fails validation", params=("field",)),
    _E("request.too_large", 413, "a request body over the size limit", params=("limit",)),
    _E("request.not_json", 400, "a request or message that is not JSON"),
    _E("request.not_found", 404, "no such path"),
    _E("request.method_not_allowed", 405, "a path that does not take the request's method"),
    _E(
        "request.unknown_type",
        400,
        "a websocket message (or a stored intent) of a type the server does not know",
        params=("type", "table", "action"),
    ),
    _E("table.not_found", 404, "no such table", params=("table",)),
    _E(
        "table.unavailable",
        503,
        "the table's process did not answer, or the table is starting or moving",
        params=("table",),
    ),
    _E("table.no_server_shoe", 409, "a dealer-entry table has no server shoe", params=("table",)),
    _E("table.not_dealer_entry", 409, "the table deals its own cards and takes no entered card", params=("table",)),
    _E("table.not_dealer_paced", 409, "the table opens betting on its own timer, not the dealer's", params=("table",)),
    _E("round.not_found", 404, "no such round", params=("round",)),
    _E("round.not_in_play", 409, "the round is not the one in play", params=("round",)),
    _E("round.finished", 409, "the round is already settled or voided", params=("round", "status")),
    _E(
        "shoe.not_revealed",
        409,
        "the shoe's server seed is not revealed yet: verify after the shoe ends",
        params=("round",),
    ),
    _E(
        "void.reason_required",
        422,
        "a void once a card of the coup is face up needs a reason",
        "R18",
        ("round", "exposed"),
    ),
    _E(
        "entropy.limit",
        409,
        "the next shoe takes no more entropy from this player (or from anyone)",
        params=("table", "per_player", "per_shoe"),
    ),
    _E("position.invalid", 400, "a card position that is not a position", params=("position",)),
    _E("bet.not_found", 409, "a bet just stored could not be read back: retry", params=("bet",)),
    _E(
        "name.invalid",
        400,
        "a user name that is not valid: 2–32 characters after NFKC normalisation, each a letter of any script "
        "(張三), a combining mark, a digit or `_ . -` (the name typed is not echoed)",
        params=("min", "max"),
    ),
    _E("name.taken", 409, "the user name is taken", params=("name",)),
    _E("name.reserved", 409, "the user name is reserved", params=("name",)),
    _E("password.invalid", 400, "a password that is not valid"),
    _E("lab.busy", 429, "the odds lab is busy with other requests: try again in a moment"),
    _E("server.error", 500, "an error on the server"),
)

#: Every code, by code.
REGISTRY: dict[str, ErrorCode] = {entry.code: entry for entry in (*_ENGINE, *_SERVER)}

#: Every code with a one-line English description of when it is given.
CODES: dict[str, str] = {code: entry.meaning for code, entry in REGISTRY.items()}

#: The HTTP status a REST answer with the code has.
STATUS: dict[str, int] = {code: entry.status for code, entry in REGISTRY.items()}

#: The code of a refusal known only by its HTTP status (a framework's own answer, an answer passed on
#: without a code); any other status is ``request.invalid``.
CODE_BY_STATUS: dict[int, str] = {
    400: "request.invalid",
    401: "auth.required",
    403: "auth.forbidden",
    404: "request.not_found",
    405: "request.method_not_allowed",
    409: "procedure.not_now",
    413: "request.too_large",
    422: "request.invalid",
    429: "request.rate_limited",
    503: "table.unavailable",
}
