"""Pydantic request and response models of the API, one module per resource."""
