from enum import StrEnum

class StartRideType(StrEnum):
    START_RIDE = "start_ride"

    def __str__(self) -> str:
        return str(self.value)
