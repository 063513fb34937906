"""The service's own refusals (not the engine's): an HTTP status, a stable code, the English detail.

The service layer (responsible gaming, the store) raises them; the API answers them in the one
shape of every refusal (:mod:`baccarat.server.api.problems`), on REST and on the websocket.

>>> refusal = Refusal(403, "account.self_excluded", "excluded", params={"until": 5.0})
>>> refusal.status, refusal.problem()
(403, {'code': 'account.self_excluded', 'rule': None, 'params': {'until': 5.0}, 'detail': 'excluded'})
"""

from __future__ import annotations

from typing import Any

__all__ = ["Refusal"]


class Refusal(Exception):
    """A refusal of the service's own (not the engine's): an HTTP status, a code and the English detail."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.rule = rule
        self.params = {} if params is None else params

    def problem(self) -> dict[str, Any]:
        """The refusal as it is answered."""
        return {"code": self.code, "rule": self.rule, "params": self.params, "detail": self.detail}
