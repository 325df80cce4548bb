from enum import StrEnum

class LayTilesType(StrEnum):
    LAY_TILES = "lay_tiles"

    def __str__(self) -> str:
        return str(self.value)
