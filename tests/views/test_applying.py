"""GET /documents?savedView=: the view's filters and sort, under the parameters given beside
it; pages whose cursor binds the effective filters; a stored view the list no longer accepts
is a clear 400, never a 500."""

from __future__ import annotations


def _ids(response):
    assert response.status_code == 200, response.get_json()
    return [d["title"] for d in response.get_json()["data"]]


def _view(save_view, **body) -> str:
    response = save_view({"name": "v", **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def test_a_view_filters_and_sorts_the_list_and_parameters_beside_it_win(
    client, headers, upload, save_view
):
    upload("b-report", ["finance"])
    upload("a-invoice", ["finance"])
    upload("c-memo", ["hr"])
    view = _view(save_view, filters={"tag": ["finance"]}, sort="title")
    listed = client.get(f"/api/v1/documents?savedView={view}", headers=headers)
    assert _ids(listed) == ["a-invoice", "b-report"]
    beside = client.get(f"/api/v1/documents?savedView={view}&sort=-title", headers=headers)
    assert _ids(beside) == ["b-report", "a-invoice"]
    replaced = client.get(f"/api/v1/documents?savedView={view}&tag=hr", headers=headers)
    assert _ids(replaced) == ["c-memo"]
    narrowed = client.get(f"/api/v1/documents?savedView={view}&title=invoice", headers=headers)
    assert _ids(narrowed) == ["a-invoice"]
    bad = client.get(f"/api/v1/documents?savedView={view}&sort=size", headers=headers)
    assert bad.status_code == 400 and bad.get_json()["errors"][0]["field"] == "sort"


def test_pages_of_a_view_carry_its_filters_in_the_cursor(client, headers, upload, save_view):
    for title in ("a", "b", "c"):
        upload(title, ["finance"])
    upload("z", ["hr"])
    view = _view(save_view, filters={"tag": "finance"}, sort="title")
    first = client.get(f"/api/v1/documents?savedView={view}&limit=2", headers=headers)
    assert _ids(first) == ["a", "b"]
    cursor = first.get_json()["meta"]["pagination"]["nextCursor"]
    rest = client.get(
        f"/api/v1/documents?savedView={view}&limit=2&cursor={cursor}", headers=headers
    )
    assert _ids(rest) == ["c"]
    # the same cursor without the view, or with the view changed, is another filter set
    plain = client.get(f"/api/v1/documents?limit=2&cursor={cursor}", headers=headers)
    assert plain.status_code == 400
    assert plain.get_json()["errors"][0]["code"] == "INVALID_CURSOR"
    client.patch(f"/api/v1/saved-views/{view}", json={"filters": {}}, headers=headers)
    changed = client.get(f"/api/v1/documents?savedView={view}&cursor={cursor}", headers=headers)
    assert changed.status_code == 400
    assert changed.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def test_a_view_the_list_no_longer_accepts_is_a_400_naming_it(app, client, headers, save_view):
    from extensions import db
    from models.views import SavedView
    from services.core import transaction

    view = _view(save_view, filters={"tag": "finance"})
    with app.app_context():  # as if saved before `colour` stopped being a parameter
        row = db.session.get(SavedView, view)
        row.filters = {"tag": ["finance"], "colour": "red", "status": ["gone"]}
        row.sort = "size"
        transaction.commit()
    response = client.get(f"/api/v1/documents?savedView={view}", headers=headers)
    assert response.status_code == 400, response.get_json()
    errors = response.get_json()["errors"]
    assert errors[0]["code"] == "INVALID_PARAMETER" and errors[0]["field"] == "savedView"
    assert "filters.colour" in errors[0]["message"]
    assert {e["field"] for e in errors[1:]} == {"filters.colour", "filters.status", "sort"}


def test_an_unknown_view_is_a_404_and_a_long_id_a_400(client, headers):
    missing = client.get("/api/v1/documents?savedView=svw_nothing", headers=headers)
    assert missing.status_code == 404
    long = client.get("/api/v1/documents?savedView=" + "x" * 41, headers=headers)
    assert long.status_code == 400
