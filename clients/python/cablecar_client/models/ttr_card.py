from enum import StrEnum

class TtrCard(StrEnum):
    BLACK = "black"
    BLUE = "blue"
    FERRY = "ferry"
    GREEN = "green"
    ORANGE = "orange"
    PURPLE = "purple"
    RED = "red"

    def __str__(self) -> str:
        return str(self.value)
