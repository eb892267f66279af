from tests.helpers import auth_headers


def test_list_documents_answers_an_empty_envelope(client, tenant, api_key):
    response = client.get("/api/v1/documents", headers=auth_headers(api_key[1], tenant.id))
    assert response.status_code == 200
    assert response.get_json() == {
        "success": True,
        "data": [],
        "meta": {"pagination": {"limit": 50, "hasMore": False}},
    }
    assert response.headers["X-Request-Id"].startswith("req_")
