from enum import StrEnum


class SourceType(StrEnum):
    API = "api"
    FOLDER = "folder"
    FORM = "form"
    IMPORT = "import"
    MAIL = "mail"
    PORTAL = "portal"

    def __str__(self) -> str:
        return str(self.value)
