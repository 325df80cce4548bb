from enum import StrEnum

class DrawCardSource(StrEnum):
    DECK = "deck"
    FACE_UP = "face_up"

    def __str__(self) -> str:
        return str(self.value)
