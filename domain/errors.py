"""Precise, stable error types raised by the rules.

Every refusal carries a stable machine ``code`` (the name of the rule that was
broken, e.g. ``ferry_second_draw``) and a human ``detail`` sentence naming the
rule.  The HTTP layer maps the classes below to statuses; the domain never
knows about HTTP.
"""

from __future__ import annotations


class DomainError(Exception):
    """Base class of every error the rules raise."""

    #: kind of refusal, mapped by the service to an HTTP problem code
    kind: str = "illegal_action"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class IllegalAction(DomainError):
    """The action is well formed but the rules forbid it now (HTTP 422)."""

    kind = "illegal_action"


class NotYourTurn(DomainError):
    """The seat may not act now (HTTP 409 ``not_your_turn``)."""

    kind = "not_your_turn"

    def __init__(self, detail: str = "it is not this seat's turn to act") -> None:
        super().__init__("not_your_turn", detail)


class GameFinished(DomainError):
    """The game is over; no action is accepted (HTTP 409 ``game_finished``)."""

    kind = "game_finished"

    def __init__(self, detail: str = "the game is finished; no more actions are accepted") -> None:
        super().__init__("game_finished", detail)


class MalformedAction(DomainError):
    """The action body does not have the shape of any action (HTTP 400)."""

    kind = "invalid_request"


class InvalidConfig(DomainError):
    """A game cannot be created with this configuration (HTTP 400/422)."""

    kind = "invalid_config"
