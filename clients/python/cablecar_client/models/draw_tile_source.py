from enum import StrEnum

class DrawTileSource(StrEnum):
    PILE = "pile"
    RIDER = "rider"

    def __str__(self) -> str:
        return str(self.value)
