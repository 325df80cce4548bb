from enum import StrEnum

class KeepTicketsType(StrEnum):
    KEEP_TICKETS = "keep_tickets"

    def __str__(self) -> str:
        return str(self.value)
