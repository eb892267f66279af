"""The portal's job page (`/jobs/<id>`): the progress and errors of the tenant's job, the
fragment htmx polls while it runs (and no polling once finished), another tenant's job 404,
and sign-in required."""

from __future__ import annotations

from tests.helpers import auth_headers


def _job_id(response) -> str:
    assert response.status_code == 202, response.get_json()
    return response.get_json()["data"]["id"]


def test_the_page_shows_progress_then_errors_and_stops_polling(
    admin_client, tenant, other_tenant, make_documents, bulk, work
):
    ids = make_documents(tenant, 2)
    theirs = make_documents(other_tenant, 1)
    job_id = _job_id(bulk({"documentIds": [*ids, *theirs], "operations": [{"op": "trash"}]}))

    page = admin_client.get(f"/jobs/{job_id}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html
    assert 'data-status="queued"' in html and 'hx-trigger="every 1s"' in html
    assert "0 of 0 documents done" in html

    work()
    fragment = admin_client.get(f"/jobs/{job_id}", headers={"HX-Request": "true"})
    html = fragment.get_data(as_text=True)
    assert "<html" not in html and 'data-status="partially_failed"' in html
    assert "hx-trigger" not in html  # finished: htmx stops asking
    assert "3 of 3 documents done, 1 failed" in html
    assert theirs[0] in html and "NOT_FOUND" in html


def test_another_tenants_job_is_not_found_and_signing_in_is_required(
    client, admin_client, other_tenant, create_key, make_documents
):
    theirs = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    response = client.post(
        "/api/v1/documents/bulk",
        json={"documentIds": make_documents(other_tenant, 1), "operations": [{"op": "trash"}]},
        headers=theirs,
    )
    job_id = _job_id(response)
    assert admin_client.get(f"/jobs/{job_id}").status_code == 404
    admin_client.post("/logout")
    assert admin_client.get(f"/jobs/{job_id}").status_code in (302, 404)
