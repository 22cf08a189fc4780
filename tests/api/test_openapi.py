"""The served OpenAPI document agrees with the REST contract in ../shared/API.md."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.settings import DEV_DIRECTOR_TOKEN

CONTRACT = Path(__file__).resolve().parents[2].parent / "shared" / "API.md"
ROW = re.compile(r"^\|\s*((?:(?:GET|POST|PUT|PATCH|DELETE)\s+`[^`]+`[,\s]*)+)\|", re.MULTILINE)
ENDPOINT = re.compile(r"(GET|POST|PUT|PATCH|DELETE)\s+`([^`]+)`")

# Endpoints of API.md that open issues build, by issue. Listed so that this test notices when
# one appears: then remove it here.
# API.md's endpoints of the open issues (pages for people, formats, ratings and analysis,
# variants): each leaves this list when it is served.
NOT_YET_BUILT: set[tuple[str, str]] = set()


def contract_endpoints() -> set[tuple[str, str]]:
    text = CONTRACT.read_text(encoding="utf-8")
    endpoints = set()
    for row in ROW.finditer(text):
        for method, path in ENDPOINT.findall(row.group(1)):
            path = path.split("?", 1)[0]
            if not path.startswith("/"):
                continue
            endpoints.add((method, _normalised(path)))
    # "`/resignations/accept`, `/resignations/reject`" are written relative to the match.
    if "/resignations/accept" in text:
        endpoints |= {
            ("POST", "/api/v1/matches/{}/resignations/accept"),
            ("POST", "/api/v1/matches/{}/resignations/reject"),
        }
    return endpoints


def served_endpoints(client: TestClient[Any]) -> set[tuple[str, str]]:
    document = client.get("/schema/openapi.json").json()
    return {
        (method.upper(), _normalised(path))
        for path, operations in document["paths"].items()
        for method in operations
    }


def _normalised(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path).rstrip("/") or "/"


@pytest.fixture
def contract() -> set[tuple[str, str]]:
    if not CONTRACT.exists():
        pytest.skip(f"the contract {CONTRACT} is not beside this checkout")
    return contract_endpoints()


def test_contract_is_read(contract: set[tuple[str, str]]) -> None:
    assert ("POST", "/api/v1/analysis/legal-plays") in contract
    assert ("GET", "/api/v1/matches/{}/export.mat") in contract


def test_every_contract_endpoint_is_served(
    client: TestClient[Any], contract: set[tuple[str, str]]
) -> None:
    # The OpenAPI UI itself is not an operation of the document: it must answer instead.
    assert client.get("/schema").status_code == 200
    missing = contract - served_endpoints(client) - NOT_YET_BUILT - {("GET", "/schema")}
    assert not missing, f"API.md endpoints missing from the OpenAPI document: {sorted(missing)}"


def test_the_list_of_endpoints_not_yet_built_is_current(
    client: TestClient[Any], contract: set[tuple[str, str]]
) -> None:
    assert contract >= NOT_YET_BUILT
    built = NOT_YET_BUILT & served_endpoints(client)
    assert not built, f"built now, remove from NOT_YET_BUILT: {sorted(built)}"


def test_every_operation_documents_its_errors_as_problem_details(client: TestClient[Any]) -> None:
    document = client.get("/schema/openapi.json").json()
    assert set(document["components"]["schemas"]["Problem"]["required"]) == {
        "type",
        "title",
        "status",
        "detail",
    }
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "400" not in responses, f"{method} {path} documents Litestar's own 400"
            for status in ("422", "4XX"):
                content = responses[status]["content"]
                assert list(content) == ["application/problem+json"], f"{method} {path}"


def test_the_openapi_ui_loads_its_assets_from_the_service_itself(client: TestClient[Any]) -> None:
    # A club laptop at the venue is often offline: no CDN.
    html = client.get("/schema").text
    assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.IGNORECASE), html
    assets = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", html)
    assert {asset.rsplit(".", 1)[-1] for asset in assets} >= {"js", "css", "png"}
    for asset in assets:
        assert asset.startswith("/schema/static/"), asset
        assert client.get(asset).status_code == 200, asset


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            yield method, path, operation


def _example_url(path: str, operation: dict[str, Any]) -> str:
    """The path with a well-formed value for each parameter (ids that exist nowhere)."""
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "path":
            uuid = parameter["schema"].get("format") == "uuid"
            value = "6a3c4c5e-0000-4000-8000-000000000000" if uuid else "1"
            path = path.replace("{" + parameter["name"] + "}", value)
    return path


def test_operations_declare_bearer_security_exactly_where_a_token_is_required(
    client: TestClient[Any],
) -> None:
    document = client.get("/schema/openapi.json").json()
    secured = {(m, p) for m, p, op in _operations(document) if op.get("security")}
    assert ("post", "/api/v1/tournaments") in secured  # the director's
    assert ("post", "/api/v1/matches/{match_id}/plays") in secured  # a player's
    assert ("post", "/api/v1/tournaments/{tournament_id}/registrations") not in secured
    for method, path, operation in _operations(document):
        if path.endswith("/live"):
            continue  # a stream: never a token, it would not end here
        if (method, path) in secured:
            assert operation["security"] == [{"bearer": []}], f"{method} {path}"
        url = _example_url(path, operation)
        answer = client.request(method.upper(), url, json={} if method != "get" else None)
        # without a token: 401 on the secured operations, never on the public ones
        assert (answer.status_code == 401) == ((method, path) in secured), f"{method} {path}"


def test_request_bodies_that_forbid_unknown_fields_say_so(client: TestClient[Any]) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for name in ("RollCreate", "PlayCreate", "MatchCreate", "LegalPlaysRequest", "DisputeCreate"):
        assert schemas[name]["additionalProperties"] is False, name
    assert "additionalProperties" not in schemas["Match"]  # a response: no such promise


def test_dice_sent_are_two_items_of_one_to_six_in_the_schemas(client: TestClient[Any]) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for dice in (
        schemas["LegalPlaysRequest"]["properties"]["dice"],
        schemas["RollCreate"]["properties"]["dice"],
    ):
        arrays = [dice, *dice.get("oneOf", [])]
        items = next(a["items"] for a in arrays if a.get("type") == "array")
        assert (items["minimum"], items["maximum"]) == (1, 6)
        assert (dice["minItems"], dice["maxItems"]) == (2, 2)


def test_a_position_id_sent_is_14_base64_characters_in_the_schema(client: TestClient[Any]) -> None:
    # found by schemathesis: a 14-character id outside the alphabet was schema-valid
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    pattern = schemas["LegalPlaysRequest"]["properties"]["position_id"]["pattern"]
    assert re.fullmatch(pattern, "4HPwATDgc/ABMA")
    assert not re.fullmatch(pattern, "4HPwATDgc/ABM\u00e4")
    answer = client.post(
        "/api/v1/analysis/legal-plays", json={"position_id": "4HPwATDgc/ABM\u00e4", "dice": [3, 1]}
    )
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "position_id"


def test_an_if_match_header_is_a_version_in_the_schema(client: TestClient[Any]) -> None:
    # found by schemathesis: "If-Match: null" was schema-valid and answered 422
    document = client.get("/schema/openapi.json").json()
    parameters = document["paths"]["/api/v1/matches/{match_id}/plays"]["post"]["parameters"]
    (if_match,) = (p for p in parameters if p["name"] == "If-Match")
    pattern = if_match["schema"]["pattern"]
    assert all(re.fullmatch(pattern, value) for value in ('"7"', "7", 'W/"7"'))
    assert not any(re.fullmatch(pattern, value) for value in ("null", "", "3x", "9" * 11))


def test_the_live_streams_and_the_qr_code_are_documented_as_what_they_send(
    client: TestClient[Any],
) -> None:
    # a client generated from the document would parse them as JSON
    paths = client.get("/schema/openapi.json").json()["paths"]
    for live in ("/api/v1/tournaments/{tournament_id}/live", "/api/v1/matches/{match_id}/live"):
        assert list(paths[live]["get"]["responses"]["200"]["content"]) == ["text/event-stream"]
    qr_code = paths["/api/v1/tournaments/{tournament_id}/tables/{number}/qr.svg"]["get"]
    assert list(qr_code["responses"]["200"]["content"]) == ["image/svg+xml"]


def test_the_rating_list_s_csv_file_is_documented_as_csv(client: TestClient[Any]) -> None:
    # API.md "Ratings" and "Pages for people": the rating list page links /pages/ratings.csv; the
    # document said application/json for the CSV it sends (found by schemathesis, ST105)
    paths = client.get("/schema/openapi.json").json()["paths"]
    ok = paths["/pages/ratings.csv"]["get"]["responses"]["200"]
    assert list(ok["content"]) == ["text/csv"]
    answer = client.get("/pages/ratings.csv")
    assert answer.headers["content-type"].split(";")[0] == "text/csv"
    assert answer.text.splitlines()[0] == (
        "rank,player_id,display_name,rating,experience,last_change,matches"
    )


def test_if_match_is_an_optional_string_and_last_event_id_keeps_its_minimum(
    client: TestClient[Any],
) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    plays = paths["/api/v1/matches/{match_id}/plays"]["post"]
    (if_match,) = (p for p in plays["parameters"] if p["name"] == "If-Match")
    # left out or a version: the text "null" is refused like any other non-version
    assert if_match["required"] is False
    assert if_match["schema"]["type"] == "string"
    assert "oneOf" not in if_match["schema"]
    created = client.post(
        "/api/v1/matches",
        json={"player_a": "anna", "player_b": "ben"},
        headers={"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"},
    ).json()
    answer = client.post(
        f"/api/v1/matches/{created['id']}/rolls",
        json={},
        headers={"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}", "If-Match": "null"},
    )
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "If-Match"
    for live in ("/api/v1/tournaments/{tournament_id}/live", "/api/v1/matches/{match_id}/live"):
        (last_event_id,) = (
            p for p in paths[live]["get"]["parameters"] if p["name"] == "Last-Event-ID"
        )
        assert last_event_id["required"] is False
        schema = last_event_id["schema"]
        assert (schema["minimum"], schema["maximum"]) == (0, 2**63 - 1)


NAMES_TYPED = {
    "SeasonCreate": ("name",),
    "PeriodCreate": ("name",),
    "TournamentCreate": ("name", "venue"),
    "RegistrationCreate": ("first_name", "last_name"),
    "DirectorCreate": ("name",),
    "MatchCreate": ("player_a", "player_b"),
}


def test_names_in_request_bodies_are_never_empty_in_the_schema(client: TestClient[Any]) -> None:
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for body, names in NAMES_TYPED.items():
        for name in names:
            assert schemas[body]["properties"][name]["minLength"] == 1, f"{body}.{name}"


def test_an_empty_name_is_refused_naming_the_field(client: TestClient[Any]) -> None:
    director = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"}
    season = {"name": "", "starts_on": "2026-01-01", "ends_on": "2026-12-31"}
    answer = client.post("/api/v1/seasons", json=season, headers=director)
    assert answer.status_code == 422
    assert [error["field"] for error in answer.json()["errors"]] == ["name"]
    tournament = {"name": "Frühjahrsturnier", "date": "2026-04-18", "venue": ""}
    answer = client.post("/api/v1/tournaments", json=tournament, headers=director)
    assert answer.status_code == 422
    assert [error["field"] for error in answer.json()["errors"]] == ["venue"]


def test_the_openapi_ui_is_swagger_ui_5_which_renders_openapi_3_1(
    client: TestClient[Any],
) -> None:
    # Swagger UI 4 showed "Unable to render this definition" for the 3.1 document
    assert client.get("/schema/openapi.json").json()["openapi"].startswith("3.1.")
    html = client.get("/schema").text
    (bundle,) = re.findall(r"src=['\"](/schema/static/swagger-ui-bundle\.js)['\"]", html)
    answer = client.get(bundle)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    version = re.search(r'PACKAGE_VERSION:"(\d+)\.\d+\.\d+"', answer.text)
    assert version is not None
    assert int(version.group(1)) >= 5


def _resolved(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _shapes_taking(item: dict[str, Any], schema: dict[str, Any], document: dict[str, Any]) -> int:
    """How many of the object shapes ``schema`` declares take ``item``: its required keys are
    all there and it has no key the shape does not name (enough for oneOf's "exactly one")."""
    schema = _resolved(schema, document)
    shapes = [_resolved(s, document) for s in schema.get("oneOf", schema.get("anyOf", [schema]))]
    return sum(
        set(shape.get("required", [])) <= set(item) <= set(shape.get("properties", {}))
        for shape in shapes
    )


@pytest.mark.parametrize("variant", ["backgammon", "plakoto", "fevga"])
def test_the_legal_plays_a_match_shows_have_the_shape_the_document_declares(
    client: TestClient[Any], variant: str
) -> None:
    # API.md "Matches" and "Variants": legal_plays has the items of the analysis answer of the
    # game's kind (position_id in backgammon, board and points in a variant game)
    document = client.get("/schema/openapi.json").json()
    match = _resolved(document["components"]["schemas"]["Match"], document)
    items = match["properties"]["legal_plays"]["items"]
    director = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"}
    body = {"player_a": "anna", "player_b": "ben", "dice": "server", "variant": variant}
    state = client.post("/api/v1/matches", json=body, headers=director).json()["match"]
    while state["phase"] != "move":
        side = {"side": state["turn"]} if state["turn"] else {}
        path = f"/api/v1/matches/{state['id']}/rolls"
        state = client.post(path, json=side, headers=director).json()
    assert state["legal_plays"]
    for item in state["legal_plays"]:
        assert _shapes_taking(item, items, document) == 1, (variant, item)
