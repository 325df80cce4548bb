from enum import StrEnum

class PlaceSouvenirStackType(StrEnum):
    PLACE_SOUVENIR_STACK = "place_souvenir_stack"

    def __str__(self) -> str:
        return str(self.value)
