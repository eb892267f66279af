"""Changing documents in the portal: upload (the script's one-file requests and a plain form
with several files), a refused upload in words (size, duplicate, no file, bad tags), source
`portal`, a new version, editing title, tags and metadata with errors beside the fields,
starting a workflow, bulk edits through services/bulk (another tenant's id a per-document
NOT_FOUND), the custom field filter, a restored row leaving the Trash tab, CSRF required
everywhere and another tenant's document answering 404."""

from __future__ import annotations

import io
import re

import pytest

from tests.helpers import csrf_token, post

XHR = {"X-Requested-With": "XMLHttpRequest"}
HTMX = {"HX-Request": "true"}
_ROW_IDS = re.compile(r'<tr id="doc-(doc_[a-z0-9]+)"')


def _document(app, document_id):
    from extensions import db
    from models import Document

    with app.app_context():
        row = db.session.get(Document, document_id)
        if row is None:
            return None
        db.session.expunge(row)
        return row


def _documents_of(app, tenant_id):
    from sqlalchemy import select

    from extensions import db
    from models import Document

    with app.app_context():
        rows = db.session.scalars(select(Document).where(Document.tenant_id == tenant_id))
        return {d.title: (d.id, d.source, d.tag_names, d.meta) for d in rows}


def _upload(client, *files, token=None, headers=None, **fields):
    data = {"file": [(io.BytesIO(content), name) for name, content in files], **fields}
    if token is not False:
        data["csrf_token"] = token or csrf_token(client, "/documents/upload")
    return client.post(
        "/documents/upload",
        data=data,
        headers=headers or {},
        content_type="multipart/form-data",
    )


@pytest.fixture
def api(client, headers):
    def call(method: str, path: str, body: dict | None = None, auth: dict | None = None):
        response = client.open(f"/api/v1{path}", method=method, json=body, headers=auth or headers)
        assert response.status_code < 300, response.get_json()
        return response.get_json()["data"]

    return call


# --- upload ------------------------------------------------------------------------------------


def test_the_scripts_upload_lands_with_source_portal(app, admin_client, tenant, admin, work):
    response = _upload(admin_client, ("notes.txt", b"meeting notes\n"), headers=XHR, tags="a, b")
    body = response.get_json()
    assert response.status_code == 201 and body["ok"] is True, body
    assert body["url"] == f"/documents/{body['id']}" and body["title"] == "notes.txt"
    _id, source, tags, _meta = _documents_of(app, tenant.id)["notes.txt"]
    assert source == {"type": "portal"} and tags == ["a", "b"]
    detail = admin_client.get(body["url"]).get_data(as_text=True)
    assert 'data-source="portal"' in detail
    work()  # extraction runs as for the API's uploads
    assert _document(app, body["id"]).text_status == "done"
    # The same service's event and the list's source filter.
    listed = admin_client.get("/documents?source=portal").get_data(as_text=True)
    assert body["id"] in listed


def test_a_plain_form_uploads_several_files_each_on_its_own(app, admin_client, tenant):
    response = _upload(admin_client, ("one.txt", b"first\n"), ("two.txt", b"second\n"))
    html = response.get_data(as_text=True)
    assert response.status_code == 201 and "2 of 2 files added" in html
    assert set(_documents_of(app, tenant.id)) == {"one.txt", "two.txt"}


def test_refusals_are_in_words_and_do_not_undo_the_other_files(
    app, admin_client, tenant, monkeypatch
):
    monkeypatch.setitem(app.config, "DMS_MAX_UPLOAD_BYTES", 100)
    big = _upload(admin_client, ("big.bin", b"x" * 500), headers=XHR)
    assert big.status_code == 413
    assert big.get_json()["message"] == "“big.bin” is too large: files may be at most 100 bytes."
    page = _upload(admin_client, ("ok.txt", b"fine\n"), ("big.txt", b"y" * 500))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "1 of 2 files added" in html
    assert "“big.txt” is too large: files may be at most 100 bytes." in html
    assert set(_documents_of(app, tenant.id)) == {"ok.txt"}
    nothing = _upload(admin_client)
    assert nothing.status_code == 422 and "Choose one or more files" in nothing.get_data(
        as_text=True
    )
    tags = _upload(admin_client, ("t.txt", b"t\n"), headers=XHR, tags="x" * 101)
    assert tags.status_code == 422 and "at most 100 characters" in tags.get_json()["message"]


def test_a_duplicate_is_refused_unless_kept(app, admin_client, tenant, store_document):
    existing = store_document(tenant, b"same bytes\n", "first.txt", title="The first")
    again = _upload(admin_client, ("again.txt", b"same bytes\n"), headers=XHR)
    body = again.get_json()
    assert again.status_code == 409 and body["code"] == "DUPLICATE"
    assert (
        body["message"]
        == "“again.txt” was not added: The same file is already stored as “The first”."
    )
    assert body["url"] == f"/documents/{existing}"
    kept = _upload(admin_client, ("again.txt", b"same bytes\n"), headers=XHR, duplicates="keep")
    assert kept.status_code == 201
    assert len(_documents_of(app, tenant.id)) == 2


def test_another_tenants_bytes_are_no_duplicate(app, admin_client, other_tenant, store_document):
    store_document(other_tenant, b"shared bytes\n", "theirs.txt")
    assert _upload(admin_client, ("mine.txt", b"shared bytes\n"), headers=XHR).status_code == 201


def test_upload_needs_csrf_and_an_editor(app, client, admin_client, tenant, auditor):
    assert _upload(admin_client, ("a.txt", b"a\n"), token=False).status_code == 400
    assert _upload(admin_client, ("a.txt", b"a\n"), token="forged", headers=XHR).status_code == 400
    assert _documents_of(app, tenant.id) == {}
    # The header token alone is enough (the script sends both).
    token = csrf_token(admin_client, "/documents/upload")
    headers = {**XHR, "X-CSRFToken": token}
    assert _upload(admin_client, ("b.txt", b"b\n"), token=False, headers=headers).status_code == 201
    admin_client.post("/logout", data={"csrf_token": token})
    from tests.helpers import sign_in

    sign_in(client, tenant.id, auditor.email)
    assert client.get("/documents/upload").status_code == 403
    assert _upload(client, ("c.txt", b"c\n"), token=csrf_token(client, "/")).status_code == 403


def test_the_upload_page_works_without_javascript(admin_client):
    html = admin_client.get("/documents/upload").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in html and 'name="file" type="file" multiple' in html
    assert 'name="csrf_token"' in html and "js/documents.js" in html


# --- a new version, editing, a workflow -------------------------------------------------------


def test_a_new_version_through_the_portal(app, admin_client, tenant, store_document):
    document_id = store_document(tenant, b"v1\n", "v.txt")
    token = csrf_token(admin_client, f"/documents/{document_id}")
    response = admin_client.post(
        f"/documents/{document_id}/versions",
        data={"csrf_token": token, "file": (io.BytesIO(b"v2 text\n"), "v2.txt")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    assert _document(app, document_id).current_version == 2
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "Version 2 is now current (v2.txt)." in detail
    refused = admin_client.post(
        f"/documents/{document_id}/versions",
        data={"file": (io.BytesIO(b"v3\n"), "v3.txt")},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 400 and _document(app, document_id).current_version == 2


def test_edit_title_tags_and_metadata_with_errors_beside_the_fields(
    app, admin_client, tenant, store_document
):
    document_id = store_document(tenant, b"x\n", "x.txt", title="Old", meta={"gone": "1"})
    page = admin_client.get(f"/documents/{document_id}/edit").get_data(as_text=True)
    assert 'value="Old"' in page and "gone = 1" in page
    bad = post(
        admin_client,
        f"/documents/{document_id}/edit",
        {"title": " ", "tags": "a", "metadata": "no equals sign\nbad key = 1"},
    )
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422
    assert 'id="title-errors"' in html and "Give the document a title." in html
    assert "Line 1: write it as key = value." in html
    assert "Line 2: “bad key” is not a key" in html
    assert _document(app, document_id).title == "Old"
    good = post(
        admin_client,
        f"/documents/{document_id}/edit",
        {"title": "New title", "tags": "b, a, b", "metadata": "dept = sales"},
    )
    assert good.status_code == 302
    row = _document(app, document_id)
    assert (row.title, sorted(row.tag_names), row.meta) == (
        "New title",
        ["a", "b"],
        {"dept": "sales"},
    )


def test_start_a_workflow_on_a_document(app, admin_client, tenant, admin, store_document, api):
    document_id = store_document(tenant, b"invoice\n", "invoice.txt")
    definition = api(
        "POST",
        "/workflows",
        {"name": "Check", "steps": [{"name": "Look", "approvers": [{"role": "admin"}]}]},
    )
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'id="start-workflow"' in detail and definition["id"] in detail
    response = post(
        admin_client, f"/documents/{document_id}/workflow", {"definition_id": definition["id"]}
    )
    assert response.status_code == 302 and "/approvals/" in response.headers["Location"]
    panel = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'id="document-workflow"' in panel
    gone = post(admin_client, f"/documents/{document_id}/workflow", {"definition_id": "wfd_nope"})
    assert gone.status_code == 302
    again = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "That workflow no longer exists; choose another." in again


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/edit"),
        ("post", "/edit"),
        ("post", "/versions"),
        ("post", "/workflow"),
    ],
)
def test_another_tenants_document_is_not_found(
    admin_client, other_tenant, store_document, method, path
):
    theirs = store_document(other_tenant, b"theirs\n", "t.txt")
    token = csrf_token(admin_client, "/documents")
    if method == "get":
        response = admin_client.get(f"/documents/{theirs}{path}")
    else:
        response = admin_client.post(
            f"/documents/{theirs}{path}",
            data={
                "csrf_token": token,
                "title": "x",
                "definition_id": "wfd_x",
                "file": (io.BytesIO(b"v\n"), "v.txt"),
            },
            content_type="multipart/form-data",
        )
    assert response.status_code == 404


def test_edits_need_the_csrf_token(app, admin_client, tenant, store_document):
    document_id = store_document(tenant, b"x\n", "x.txt", title="Kept")
    assert (
        admin_client.post(f"/documents/{document_id}/edit", data={"title": "No"}).status_code == 400
    )
    assert admin_client.post(f"/documents/{document_id}/workflow").status_code == 400
    assert admin_client.post("/documents/bulk", data={"ids": document_id}).status_code == 400
    assert _document(app, document_id).title == "Kept"


# --- bulk --------------------------------------------------------------------------------------


def test_bulk_tag_from_the_list_with_another_tenants_id(
    app, admin_client, tenant, other_tenant, store_document, work
):
    mine = [store_document(tenant, f"d{n}\n".encode(), f"d{n}.txt") for n in range(3)]
    theirs = store_document(other_tenant, b"theirs\n", "t.txt")
    listed = admin_client.get("/documents").get_data(as_text=True)
    assert 'id="bulk-form"' in listed and "data-select-all" in listed
    assert all(f'name="ids" value="{i}"' in listed for i in mine)
    token = csrf_token(admin_client, "/documents")
    response = admin_client.post(
        "/documents/bulk",
        data={"csrf_token": token, "ids": [*mine, theirs], "action": "addTags", "tags": "seen"},
        headers={**HTMX, "X-CSRFToken": token},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and 'id="job-progress"' in html
    assert 'hx-trigger="every 1s"' in html
    job_id = re.search(r"/jobs/(job_[a-z0-9]+)", html).group(1)
    work()
    done = admin_client.get(f"/jobs/{job_id}", headers=HTMX).get_data(as_text=True)
    assert 'data-status="partially_failed"' in done and "4 of 4 documents done, 1 failed" in done
    assert theirs in done and "NOT_FOUND" in done
    assert all(_document(app, i).tag_names == ["seen"] for i in mine)
    assert _document(app, theirs).tag_names == []


def test_bulk_without_javascript_select_all_on_the_page_then_trash(
    app, admin_client, tenant, store_document, work
):
    ids = [store_document(tenant, f"d{n}\n".encode(), f"d{n}.txt") for n in range(2)]
    response = post(
        admin_client,
        "/documents/bulk",
        {"all_on_page": "1", "page_ids": ids, "action": "trash", "back": "/documents"},
    )
    assert response.status_code == 302 and response.headers["Location"].startswith("/jobs/job_")
    work()
    assert {_document(app, i).status for i in ids} == {"deleted"}


def test_bulk_refusals_in_words(admin_client, tenant, store_document):
    document_id = store_document(tenant, b"x\n", "x.txt")
    cases = [
        ({"action": "addTags", "tags": "a"}, "Select one or more documents first."),
        ({"ids": document_id, "action": "addTags", "tags": " , "}, "Give the tags to add"),
        ({"ids": document_id, "action": "startWorkflow"}, "Choose the workflow to start."),
        (
            {"ids": document_id, "action": "startWorkflow", "definition_id": "wfd_gone"},
            "That workflow no longer exists",
        ),
        ({"ids": document_id, "action": "explode"}, "Choose what to do"),
    ]
    token = csrf_token(admin_client, "/documents")
    for data, words in cases:
        response = admin_client.post(
            "/documents/bulk",
            data={"csrf_token": token, **data},
            headers={**HTMX, "X-CSRFToken": token},
        )
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and 'id="bulk-refused"' in html, data
        assert words in html, (data, html)


def test_bulk_start_a_workflow(app, admin_client, tenant, store_document, api, work):
    ids = [store_document(tenant, f"d{n}\n".encode(), f"d{n}.txt") for n in range(2)]
    definition = api(
        "POST",
        "/workflows",
        {"name": "Check", "steps": [{"name": "Look", "approvers": [{"role": "admin"}]}]},
    )
    listed = admin_client.get("/documents").get_data(as_text=True)
    assert f'<option value="{definition["id"]}">Check</option>' in listed
    post(
        admin_client,
        "/documents/bulk",
        {"ids": ids, "action": "startWorkflow", "definition_id": definition["id"]},
    )
    work()
    started = api("GET", "/workflows/instances")
    assert sorted(i["subject"]["id"] for i in started) == sorted(ids)


# --- the custom field filter -------------------------------------------------------------------


@pytest.fixture
def fields(api, tenant, store_document, app):
    """Three documents with an integer `Amount`, a select `Kind`; returns names and ids."""
    amount = api("POST", "/custom-fields", {"name": "Amount", "dataType": "integer"})
    kind = api(
        "POST",
        "/custom-fields",
        {
            "name": "Kind",
            "dataType": "select",
            "options": [{"label": "Invoice"}, {"label": "Memo"}],
        },
    )
    invoice, memo = (o["id"] for o in kind["options"])
    made = {}
    for title, value, option in [
        ("small", 5, invoice),
        ("large", 500, invoice),
        ("note", None, memo),
    ]:
        document_id = store_document(tenant, f"{title}\n".encode(), f"{title}.txt", title=title)
        values = {kind["id"]: option, **({amount["id"]: value} if value is not None else {})}
        api("PATCH", f"/documents/{document_id}", {"customFields": values})
        made[title] = document_id
    return {"amount": amount["id"], "kind": kind["id"], "docs": made}


def _titles(response) -> set[str]:
    return set(
        re.findall(
            r'class="strong" href="/documents/doc_[a-z0-9]+">([^<]+)</a>',
            response.get_data(as_text=True),
        )
    )


def test_filter_by_a_custom_field(admin_client, fields):
    page = admin_client.get("/documents").get_data(as_text=True)
    assert (
        'id="f-cf-field"' in page
        and f'value="{fields["amount"]}" data-ops="exact gt gte lt lte range in exists isnull"'
        in page
    )
    more = admin_client.get(f"/documents?cf_field={fields['amount']}&cf_op=gt&cf_value=10")
    assert more.status_code == 200 and _titles(more) == {"large"}
    between = admin_client.get(
        f"/documents?cf_field={fields['amount']}&cf_op=range&cf_value=1&cf_to=10"
    )
    assert _titles(between) == {"small"}
    unset = admin_client.get(f"/documents?cf_field={fields['amount']}&cf_op=isnull")
    assert _titles(unset) == {"note"}
    by_label = admin_client.get(f"/documents?cf_field={fields['kind']}&cf_op=exact&cf_value=memo")
    assert _titles(by_label) == {"note"}
    # With search words the ranked page is narrowed by the same condition.
    searched = admin_client.get(
        f"/documents?q=large&cf_field={fields['amount']}&cf_op=lt&cf_value=10"
    )
    assert _titles(searched) == set()


def test_a_wrong_custom_field_condition_is_in_words(admin_client, fields, other_tenant):
    wrong_op = admin_client.get(f"/documents?cf_field={fields['kind']}&cf_op=gt&cf_value=1")
    html = wrong_op.get_data(as_text=True)
    assert wrong_op.status_code == 400 and "“is more than (after)” does not apply to Kind." in html
    not_a_number = admin_client.get(
        f"/documents?cf_field={fields['amount']}&cf_op=exact&cf_value=ten"
    )
    assert "Amount: “ten” is not a whole number." in not_a_number.get_data(as_text=True)
    not_an_option = admin_client.get(f"/documents?cf_field={fields['kind']}&cf_value=Poem")
    assert "Kind: “Poem” is not one of its options." in not_an_option.get_data(as_text=True)
    unknown = admin_client.get("/documents?cf_field=cfd_unknown&cf_value=1")
    assert "That custom field no longer exists" in unknown.get_data(as_text=True)
    assert _titles(unknown) == {"small", "large", "note"} or unknown.status_code == 400


def test_a_saved_view_keeps_the_custom_field_filter(admin_client, fields, api):
    query = f"cf_field={fields['amount']}&cf_op=gte&cf_value=5"
    saved = post(
        admin_client,
        "/documents/views",
        {"name": "Costly", "query": query, "columns": ["title", "tags"], "shared": "on"},
    )
    assert saved.status_code == 302
    applied = admin_client.get(saved.headers["Location"])
    assert _titles(applied) == {"small", "large"}
    # The API applies the same view: its filters hold the list's customFieldQuery.
    view_id = re.search(r"saved=(svw_[a-z0-9]+)", saved.headers["Location"]).group(1)
    listed = api("GET", f"/documents?savedView={view_id}")
    assert {d["title"] for d in listed} == {"small", "large"}


# --- the trash tab -----------------------------------------------------------------------------


def test_a_restored_row_leaves_the_trash_tab_at_once(app, admin_client, tenant, store_document):
    document_id = store_document(tenant, b"x\n", "x.txt")
    post(admin_client, f"/documents/{document_id}/trash")
    token = csrf_token(admin_client, "/documents?status=deleted")
    response = admin_client.post(
        f"/documents/{document_id}/restore",
        data={"back": "/documents?status=deleted"},
        headers={**HTMX, "X-CSRFToken": token},
    )
    assert response.status_code == 200 and response.get_data(as_text=True) == ""
    assert _document(app, document_id).status == "active"
    trash = admin_client.get("/documents?status=deleted")
    assert _ROW_IDS.findall(trash.get_data(as_text=True)) == []


# --- attacks -----------------------------------------------------------------------------------


def test_a_hostile_file_name_is_cleaned_and_shown_escaped(app, admin_client, tenant):
    page = _upload(admin_client, ("../../<img src=x onerror=alert(1)>.txt", b"hostile\n"))
    html = page.get_data(as_text=True)
    assert page.status_code == 201 and "<img src=x" not in html
    assert "_img src=x onerror=alert(1)_.txt" in html  # markup characters become _
    amp = _upload(admin_client, ("Tom & Jerry's.txt", b"cartoon\n"))
    assert "Tom &amp; Jerry&#39;s.txt" in amp.get_data(as_text=True)
    titles = set(_documents_of(app, tenant.id))
    assert titles == {"_img src=x onerror=alert(1)_.txt", "Tom & Jerry's.txt"}


def test_a_new_version_of_a_trashed_document_is_refused_in_words(
    app, admin_client, tenant, store_document
):
    document_id = store_document(tenant, b"v1\n", "v.txt")
    post(admin_client, f"/documents/{document_id}/trash")
    token = csrf_token(admin_client, f"/documents/{document_id}")
    admin_client.post(
        f"/documents/{document_id}/versions",
        data={"csrf_token": token, "file": (io.BytesIO(b"v2\n"), "v2.txt")},
        content_type="multipart/form-data",
    )
    assert _document(app, document_id).current_version == 1
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "“v2.txt” is not a new version: This document is in the trash" in detail


def test_another_tenants_custom_field_filters_nothing(
    admin_client, fields, other_tenant, create_key
):
    from tests.helpers import auth_headers

    theirs = admin_client.post(
        "/api/v1/custom-fields",
        json={"name": "Secret", "dataType": "integer"},
        headers=auth_headers(create_key(other_tenant)[1], other_tenant.id),
    ).get_json()["data"]
    response = admin_client.get(f"/documents?cf_field={theirs['id']}&cf_op=gt&cf_value=1")
    assert response.status_code == 400
    assert "That custom field no longer exists" in response.get_data(as_text=True)
    assert theirs["id"] not in admin_client.get("/documents").get_data(as_text=True)


def test_an_overlong_custom_field_value_is_cut_not_a_500(admin_client, fields):
    response = admin_client.get(
        f"/documents?cf_field={fields['kind']}&cf_op=in&cf_value=" + "a," * 5000
    )
    assert response.status_code == 400
    assert "Kind: “a” is not one of its options." in response.get_data(as_text=True)
