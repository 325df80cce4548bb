from enum import StrEnum

class GameStatus(StrEnum):
    CANCELLED = "cancelled"
    FINISHED = "finished"
    LAST_ROUND = "last_round"
    PLAYING = "playing"
    SCHEDULED = "scheduled"
    SETUP = "setup"

    def __str__(self) -> str:
        return str(self.value)
