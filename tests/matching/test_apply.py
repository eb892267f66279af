"""`POST /matching-rules/{id}/apply`: one rule over existing documents as a job of the bulk
kind (`GET /jobs/{id}`), by ids or by the list's filters; another tenant's document is that
document's NOT_FOUND and is never touched; a filter never reaches another tenant's documents."""

from __future__ import annotations

from tests.matching.conftest import RULES

TEXT = "Invoice from ACME, total due"


def _job(response, status=202) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def test_apply_by_ids_tags_matching_documents_and_reports_others_not_found(
    client, headers, other_headers, make_rule, upload, work, seen, tenant
):
    matching = upload(TEXT)
    other = upload("a letter")
    theirs = upload(TEXT, auth=other_headers)
    work()
    rule = make_rule("invoices", pattern="invoice", enabled=False)
    response = client.post(
        f"{RULES}/{rule['id']}/apply",
        json={"documentIds": [matching, theirs, other]},
        headers=headers,
    )
    job = _job(response)
    assert job["type"] == "matching.apply" and job["status"] == "queued"
    assert response.headers["Location"] == f"/api/v1/jobs/{job['id']}"
    work()
    done = _job(client.get(f"/api/v1/jobs/{job['id']}", headers=headers), 200)
    assert (done["status"], done["total"], done["done"], done["failed"]) == (
        "partially_failed", 3, 3, 1,
    )  # fmt: skip
    assert done["errors"] == [
        {"documentId": theirs, "code": "NOT_FOUND", "message": "Document not found."}
    ]
    assert seen.tags(matching) == ["invoices"]
    assert seen.tags(other) == [] and seen.tags(theirs) == []
    ((document, label, details),) = seen.applied(tenant.id)
    assert (document, label, details["jobId"]) == (matching, "rule invoices", job["id"])
    assert client.get(f"/api/v1/jobs/{job['id']}", headers=other_headers).status_code == 404


def test_apply_by_filter_stays_in_the_tenant(
    client, headers, other_headers, make_rule, upload, work, seen
):
    mine = [upload(TEXT), upload(TEXT)]
    theirs = upload(TEXT, auth=other_headers)
    work()
    rule = make_rule("all", pattern="invoice")
    job = _job(client.post(f"{RULES}/{rule['id']}/apply",
                           json={"filter": {"status": "active"}}, headers=headers))  # fmt: skip
    work()
    done = _job(client.get(f"/api/v1/jobs/{job['id']}", headers=headers), 200)
    assert (done["status"], done["total"], done["failed"]) == ("succeeded", 2, 0)
    assert [seen.tags(d) for d in mine] == [["all"], ["all"]]
    assert seen.tags(theirs) == []


def test_apply_checks_its_body(client, headers, make_rule):
    rule = make_rule("r", pattern="x")
    url = f"{RULES}/{rule['id']}/apply"
    assert client.post(url, json={}, headers=headers).status_code == 422
    both = {"documentIds": ["doc_x"], "filter": {}}
    assert client.post(url, json=both, headers=headers).status_code == 422
    bad_filter = client.post(url, json={"filter": {"limit": 5}}, headers=headers)
    assert bad_filter.status_code == 422
    too_many = {"documentIds": [f"doc_{n}" for n in range(10_001)]}
    assert client.post(url, json=too_many, headers=headers).status_code in (413, 422)
