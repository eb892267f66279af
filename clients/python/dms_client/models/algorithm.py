from enum import StrEnum


class Algorithm(StrEnum):
    ALL = "all"
    ANY = "any"
    AUTO = "auto"
    EXACT = "exact"
    FUZZY = "fuzzy"
    REGEX = "regex"

    def __str__(self) -> str:
        return str(self.value)
