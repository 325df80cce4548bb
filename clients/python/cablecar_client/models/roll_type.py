from enum import StrEnum

class RollType(StrEnum):
    ROLL = "roll"

    def __str__(self) -> str:
        return str(self.value)
