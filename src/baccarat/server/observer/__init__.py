"""What clients observe of a table: the websocket's messages (:mod:`.messages`: one vocabulary, a JSON
Schema per message) and the REST views (:mod:`.views`).

>>> from baccarat.server.observer import SCHEMAS, public
>>> "round_settled" in SCHEMAS and public({"type": "BetPlaced"}) is None
True
"""

from baccarat.server.observer.messages import (
    ACTIONS,
    DIALECT,
    PRIVATE_FIELD,
    SCHEMAS,
    TOLD_BY,
    Message,
    Ref,
    action_ok,
    authenticated,
    balance,
    bet_ack,
    betting_closed_fields,
    countdown,
    encode,
    error,
    my_bet,
    pong,
    private,
    public,
    reply,
    settled_private,
    snapshot,
    state,
    voided_private,
)

__all__ = [
    "ACTIONS",
    "DIALECT",
    "PRIVATE_FIELD",
    "SCHEMAS",
    "TOLD_BY",
    "Message",
    "Ref",
    "action_ok",
    "authenticated",
    "balance",
    "bet_ack",
    "betting_closed_fields",
    "countdown",
    "encode",
    "error",
    "my_bet",
    "pong",
    "private",
    "public",
    "reply",
    "settled_private",
    "snapshot",
    "state",
    "voided_private",
]
