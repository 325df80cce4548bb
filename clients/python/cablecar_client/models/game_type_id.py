from enum import StrEnum

class GameTypeId(StrEnum):
    CABLE_CAR = "cable-car"
    TTR_SF = "ttr-sf"

    def __str__(self) -> str:
        return str(self.value)
