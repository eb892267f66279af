"""The portal's landing page until the admin portal work replaces it."""

from __future__ import annotations

from flask import render_template

from portal import bp


@bp.get("/")
def index():
    return render_template("portal/home.html")
