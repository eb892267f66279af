"""The admin portal blueprint: every page module attaches its views to `bp`."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("portal", __name__)
