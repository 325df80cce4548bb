from enum import StrEnum

class WebhookEvent(StrEnum):
    GAME_CANCELLED = "game.cancelled"
    GAME_FINISHED = "game.finished"
    GAME_SEAT_OUT = "game.seat_out"
    GAME_STARTED = "game.started"
    LOG_CHECKPOINT = "log.checkpoint"

    def __str__(self) -> str:
        return str(self.value)
