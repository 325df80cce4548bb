from enum import StrEnum

class DrawTicketsType(StrEnum):
    DRAW_TICKETS = "draw_tickets"

    def __str__(self) -> str:
        return str(self.value)
