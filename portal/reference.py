"""The API's reading pages: the interactive reference at /docs (the vendored renderer over
/api/v1/openapi.json) and the migration guide each deprecated item links to."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, render_template, url_for
from markupsafe import Markup

from portal.security import content_security_policy
from services.lifecycle import deprecations

GUIDES_DIR = Path(__file__).resolve().parent.parent / "docs" / "migrations"

docs_bp = Blueprint("docs", __name__)
# The renderer injects its styles at run time; scripts stay 'self' only.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@docs_bp.get("/docs")
@content_security_policy(DOCS_CSP)
def reference():
    return render_template(
        "docs/reference.html",
        spec_url=url_for("api.openapi_document"),
        oauth_redirect_url=url_for(
            "static", filename="vendor/swagger-ui/oauth2-redirect.html", _external=True
        ),
    )


@docs_bp.get("/docs/migrations/<slug>")
def migration_guide(slug: str):
    """The migration guide a deprecated item's Link rel="deprecation" points to."""
    item = deprecations.find(slug)
    if item is None:
        abort(404)
    from markdown_it import MarkdownIt  # loaded when a guide is read, not in every worker

    text = (GUIDES_DIR / f"{item.id}.md").read_text(encoding="utf-8")
    html = MarkdownIt("commonmark", {"html": False}).render(text)
    return render_template("docs/migration.html", item=item, guide_html=Markup(html))  # noqa: S704


def init_app(app: Flask) -> None:
    app.register_blueprint(docs_bp)
