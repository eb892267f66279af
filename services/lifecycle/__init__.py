"""The API's lifecycle: the registry of deprecated and sunset items, their headers, who still
calls them, and the notices sent (docs/lifecycle.md)."""
