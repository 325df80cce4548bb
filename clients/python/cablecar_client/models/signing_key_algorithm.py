from enum import StrEnum

class SigningKeyAlgorithm(StrEnum):
    ED25519 = "ed25519"

    def __str__(self) -> str:
        return str(self.value)
