from enum import StrEnum

class WebhookEvent(StrEnum):
    GAME_FINISHED = "game.finished"
    GAME_STARTED = "game.started"

    def __str__(self) -> str:
        return str(self.value)
