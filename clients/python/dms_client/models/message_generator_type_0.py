from enum import StrEnum


class MessageGeneratorType0(StrEnum):
    EXTRACTIVE = "extractive"
    LLM = "llm"

    def __str__(self) -> str:
        return str(self.value)
