from enum import StrEnum

class AuditVerdict(StrEnum):
    DAMAGED_ATTESTED = "damaged_attested"
    NOT_VALID = "not_valid"
    NOT_VERIFIED = "not_verified"
    SUPERSEDED = "superseded"
    VALID = "valid"

    def __str__(self) -> str:
        return str(self.value)
