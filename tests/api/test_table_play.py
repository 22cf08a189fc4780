"""Playing at the table over HTTP (API.md "Playing at the table"): the two players of a match
play it move by move on the table page, each form the REST command of the same name (same
events, same rules); the board is drawn by the service. Browser check:
tests/browser/test_table_page.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from service.clock import MovableClock
from tests.api.test_table_page import (
    SESSION,
    Client,
    hidden,
    pairing,
    sign_in,
    table_page,
    token_of,
)
from tests.api.test_tournament_day import Day, start_tournament

Side = Literal["a", "b"]
Step = tuple[Side, str, dict[str, Any]]
"""One action of a side: the form's ``data-action`` and its visible inputs (for ``play``, the
choice of the first legal play; for ``cube``, the hidden ``action``)."""


@dataclass
class Table:
    """A table of the day, with each side's session cookie once signed in."""

    day: Day
    number: int
    sessions: dict[Side, str] = field(default_factory=dict)

    @property
    def match_id(self) -> str:
        match_id: str = pairing(self.day, self.number)["match_id"]
        return match_id

    @property
    def url(self) -> str:
        return f"/pages/tournaments/{self.day.id}/tables/{self.number}"

    def player(self, side: Side) -> str:
        player: str = pairing(self.day, self.number)[f"player_{side}"]
        return player

    def token(self, side: Side) -> str:
        return token_of(self.day, self.player(side))


def seated(client: Client, table: Table, side: Side) -> None:
    """The side's player's session is the client's (signed in once per side)."""
    if side not in table.sessions:
        answer = sign_in(client, table.token(side))
        assert answer.status_code == 303, answer.text
        table.sessions[side] = client.cookies[SESSION]
    client.cookies.clear()
    client.cookies.set(SESSION, table.sessions[side], path="/pages")


def forms(html: str, action: str) -> list[str]:
    return re.findall(rf'<form[^>]*data-action="{action}".*?</form>', html, re.DOTALL)


def the_form(html: str, action: str, side: Side, value: str | None = None) -> str:
    """The page's first ``action`` form for ``side`` (with hidden ``action`` = ``value``)."""
    for form in forms(html, action):
        if f'data-side="{side}"' in form and (value is None or hidden(form)["action"] == value):
            return form
    raise AssertionError(f"the page offers no {action} form for side {side}")


def by_form(client: Client, table: Table, side: Side, action: str, inputs: dict[str, Any]) -> Any:
    """Send the side's form from the table page as its player's browser would."""
    seated(client, table, side)
    form = the_form(table_page(client, table.day, table.number), action, side, inputs.get("action"))
    return client.post(
        f"{table.url}/{action}",
        data={**hidden(form), **inputs},
        follow_redirects=False,
    )


REST_PATHS = {
    "roll": "rolls",
    "play": "plays",
    "cube": "cube",
    "resign": "resignations",
    "accept-resignation": "resignations/accept",
    "reject-resignation": "resignations/reject",
    "void-roll": "rolls/void",
}


def by_rest(client: Client, table: Table, side: Side, action: str, inputs: dict[str, Any]) -> Any:
    """The same action over REST with the player's token."""
    body: dict[str, Any] = {}
    if action == "roll" and "die1" in inputs:
        body = {"dice": [int(inputs["die1"]), int(inputs["die2"])]}
    elif action == "play":
        body = {"play": inputs["play"]}
    elif action == "cube":
        body = {"action": inputs["action"]}
    elif action == "resign":
        body = {"level": inputs["level"]}
    elif action == "void-roll":
        body = {"reason": inputs["reason"]}
    return client.post(
        f"/api/v1/matches/{table.match_id}/{REST_PATHS[action]}",
        json=body,
        headers={"Authorization": f"Bearer {table.token(side)}"},
    )


def first_play(client: Client, table: Table) -> str:
    plays = client.get(f"/api/v1/matches/{table.match_id}").json()["legal_plays"]
    notation: str = plays[0]["play"]
    return notation


def events(client: Client, table: Table) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/matches/{table.match_id}/events")
    assert answer.status_code == 200, answer.text
    shown: list[dict[str, Any]] = answer.json()
    return shown


def facts(client: Client, table: Table) -> list[tuple[str, dict[str, Any]]]:
    """What the match's events say after its start, without when and by whom."""
    return [(e["type"], e["data"]) for e in events(client, table) if e["version"] > 1]


def acting_sides(client: Client, table: Table) -> list[str]:
    """Who recorded each event: the side whose player it names, else as recorded."""
    sides = {f"player:{table.player(side)}": side for side in ("a", "b")}
    return [sides.get(e["actor"], e["actor"]) for e in events(client, table)]


# Two games with every action of playing at the table: the opening roll, plays, a roll voided
# and rolled again, a double taken, a resignation rejected and one accepted; then a double
# dropped.
GAMES: list[Step] = [
    ("a", "roll", {"die1": "3", "die2": "1"}),  # rule G-OPEN-1: side a's die is higher
    ("a", "play", {}),
    ("b", "roll", {"die1": "6", "die2": "5"}),
    ("b", "void-roll", {"reason": "a cocked die"}),  # rule G-DICE-2: both sides ask
    ("a", "void-roll", {"reason": "a cocked die"}),
    ("b", "roll", {"die1": "6", "die2": "5"}),
    ("b", "play", {}),
    ("a", "cube", {"action": "double"}),  # rule G-CUBE-1
    ("b", "cube", {"action": "take"}),
    ("a", "roll", {"die1": "4", "die2": "2"}),
    ("a", "play", {}),
    ("b", "resign", {"level": "gammon"}),  # rule G-RESIGN-1
    ("a", "reject-resignation", {}),
    ("b", "resign", {"level": "single"}),
    ("a", "accept-resignation", {}),
    ("a", "roll", {"die1": "2", "die2": "5"}),  # the second game: side b starts
    ("b", "play", {}),
    ("a", "roll", {"die1": "6", "die2": "4"}),
    ("a", "play", {}),
    ("b", "cube", {"action": "double"}),
    ("a", "cube", {"action": "drop"}),
]


def test_every_form_records_the_events_its_rest_command_records(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    on_page, over_rest = Table(day, 1), Table(day, 2)
    for side, action, inputs in GAMES:
        if action == "play":
            inputs = {"play": first_play(client, on_page)}
            assert inputs["play"] == first_play(client, over_rest)
        answer = by_form(client, on_page, side, action, inputs)
        assert answer.status_code == 303, (action, answer.text)
        assert answer.headers["location"] == on_page.url  # Post/Redirect/Get
        assert by_rest(client, over_rest, side, action, inputs).status_code == 200
    played = facts(client, on_page)
    assert played == facts(client, over_rest)
    kinds = [kind for kind, _ in played]
    for kind in (
        "RollVoidRequested",
        "RollVoided",
        "CubeTaken",
        "ResignationRejected",
        "ResignationAccepted",
        "CubeDropped",
    ):
        assert kind in kinds
    # and the acts are the players' own, as with their tokens
    assert acting_sides(client, on_page) == acting_sides(client, over_rest)
    assert set(acting_sides(client, on_page)[2:]) == {"a", "b"}  # after the pairing's start
    state = client.get(f"/api/v1/matches/{on_page.match_id}").json()
    assert state["score"] == {"a": 2, "b": 1}  # a double taken and a single, a double dropped


def test_a_form_for_the_other_side_is_refused_and_records_nothing(
    client: Client, clock: MovableClock
) -> None:
    # a player session acts only for that player's side (API.md "Sessions")
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    assert by_form(client, table, "a", "roll", {"die1": "5", "die2": "2"}).status_code == 303
    seated(client, table, "b")
    page = table_page(client, day, 1)
    assert not [f for f in forms(page, "play") if 'data-side="a"' in f]  # not b's to send
    before = len(events(client, table))
    seated(client, table, "a")
    form = the_form(table_page(client, day, 1), "play", "a")
    for side in ("b",):
        seated(client, table, "b")  # b's session, a's form renamed for b and as it was
        for sent in ({**hidden(form), "side": side}, hidden(form)):
            answer = client.post(f"{table.url}/play", data=sent, follow_redirects=False)
            assert answer.status_code == 403, answer.text
            assert "data-error" in answer.text
    # over REST, b's token naming side a is the same refusal
    rest = client.post(
        f"/api/v1/matches/{table.match_id}/plays",
        json={"play": hidden(form)["play"], "side": "a"},
        headers={"Authorization": f"Bearer {table.token('b')}"},
    )
    assert rest.status_code == 403
    assert len(events(client, table)) == before


def test_a_playing_form_needs_its_csrf_token_and_a_get_changes_nothing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    seated(client, table, "a")
    form = the_form(table_page(client, day, 1), "roll", "a")
    body = {**hidden(form), "die1": "6", "die2": "1"}
    del body["_csrf_token"]
    for sent in (body, {**body, "_csrf_token": "0" * 64}):
        answer = client.post(f"{table.url}/roll", data=sent, follow_redirects=False)
        assert answer.status_code == 403
    for action in REST_PATHS:
        assert client.get(f"{table.url}/{action}").status_code == 405
    client.cookies.clear()  # without a session, the page's own form is refused too
    no_session = client.post(f"{table.url}/roll", data={**hidden(form), "die1": "6", "die2": "1"})
    assert no_session.status_code == 403
    assert len(events(client, table)) == 2  # the match's start and its first game only
    assert client.get(f"/api/v1/matches/{table.match_id}").json()["phase"] == "opening"


def test_a_form_sent_twice_is_stale_the_second_time(client: Client, clock: MovableClock) -> None:
    # the form carries the version it was drawn at, as If-Match: a double click rolls once
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    seated(client, table, "a")
    form = the_form(table_page(client, day, 1), "roll", "a")
    sent = {**hidden(form), "die1": "6", "die2": "1"}
    assert client.post(f"{table.url}/roll", data=sent, follow_redirects=False).status_code == 303
    again = client.post(f"{table.url}/roll", data=sent, follow_redirects=False)
    assert again.status_code == 409
    assert "data-error" in again.text
    assert [e["type"] for e in events(client, table)].count("OpeningRollMade") == 1


def test_refusals_come_back_with_their_reason(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    wrong_dice = by_form(client, table, "a", "roll", {"die1": "7", "die2": "1"})
    assert wrong_dice.status_code == 422
    assert re.search(r"data-error>[^<]*1 bis 6", wrong_dice.text)
    assert by_form(client, table, "a", "roll", {"die1": "4", "die2": "1"}).status_code == 303
    seated(client, table, "a")
    form = the_form(table_page(client, day, 1), "play", "a")
    illegal = client.post(
        f"{table.url}/play", data={**hidden(form), "play": "24/1"}, follow_redirects=False
    )
    rest = by_rest(client, table, "a", "play", {"play": "24/1"})
    # rule G-LEGAL-1: refused as over REST, with the domain's reason in the page's words
    assert illegal.status_code == rest.status_code == 409
    shown = re.search(r"data-error>([^<]+)<", illegal.text)
    assert shown is not None
    assert rest.json()["detail"].startswith("illegal play: 24/1 with 4-1: ")
    assert shown.group(1) == "24/1 ist mit 4-1 kein erlaubter Zug (Regel G-LEGAL-1)."
    assert [e["type"] for e in events(client, table)][-1] == "OpeningRollMade"


def test_the_board_shows_the_checkers_cube_and_dice_and_the_public_gets_no_form(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    html = table_page(client, day, 1)
    assert "<svg" in html
    counts = dict(re.findall(r'data-point="(\d+)" data-side="[ab]?" data-count="(\d+)"', html))
    assert len(counts) == 24
    for side in "ab":
        on_points = re.findall(rf'data-point="\d+" data-side="{side}" data-count="(\d+)"', html)
        assert sum(map(int, on_points)) == 15
        assert f'data-off="{side}" data-count="0"' in html
        assert f'data-bar="{side}" data-count="0"' in html
    assert re.search(r'data-cube data-value="1" data-owner=""', html)
    assert not forms(html, "roll")
    assert "Eröffnungswurf" in html
    assert by_form(client, table, "a", "roll", {"die1": "6", "die2": "2"}).status_code == 303
    client.cookies.clear()
    moved = table_page(client, day, 1)
    assert 'data-die="6"' in moved
    assert 'data-die="2"' in moved
    assert 'data-phase="move"' in moved
    assert not re.search(r"<form[^>]*data-action=", moved)  # the public plays nothing
    assert "_csrf_token" not in moved


def test_the_forms_speak_english_with_lang_en_and_server_dice_need_no_dice(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2, dice="server")  # the club clock
    table = Table(day, 1)
    seated(client, table, "b")
    german = table_page(client, day, 1)
    assert ">Würfeln</button>" in german
    english = client.get(f"{table.url}?lang=en").text
    form = the_form(english, "roll", "b")
    assert ">Roll</button>" in form
    assert 'name="die1"' not in form  # the service rolls
    assert 'data-clock="a"' in english  # the club clock: both sides' time left
    answer = client.post(f"{table.url}/roll?lang=en", data=hidden(form), follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{table.url}?lang=en"
    rolled = [e for e in events(client, table) if e["type"] == "OpeningRollMade"]
    assert rolled[0]["data"]["roll_index"] == 0  # rule G-DICE-1: the seed's first roll


def opened_tablet(client: Client, table: Table) -> Any:
    """The director signs in on the tablet and opens it for the table."""
    from tests.api.test_console import signed_in as director_signed_in

    client.cookies.clear()
    director_signed_in(client)
    url = f"/director/tournaments/{table.day.id}/tables/{table.number}/tablet"
    page = client.get(url)
    assert page.status_code == 200, page.text
    form = form_of_action(page.text, "open-tablet")
    return client.post(url, data=hidden(form), follow_redirects=False)


def form_of_action(html: str, action: str) -> str:
    found = forms(html, action)
    assert found, f"the page has a {action} form"
    return found[0]


def test_the_directors_tablet_plays_both_sides_of_its_table_only(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table, other = Table(day, 1), Table(day, 2)
    # without a director's session the tablet's page sends to the sign-in
    client.cookies.clear()
    tablet_url = f"/director/tournaments/{day.id}/tables/1/tablet"
    assert client.get(tablet_url, follow_redirects=False).status_code == 303
    opened = opened_tablet(client, table)
    director_cookie = opened.request.headers["cookie"].split("bgtd_director_session=")[1]
    director_cookie = director_cookie.split(";")[0]
    assert opened.status_code == 303
    assert opened.headers["location"] == table.url
    cookies = opened.headers.get_list("set-cookie")
    tablet_cookie = next(c for c in cookies if c.startswith("bgtd_table_tablet="))
    flags = [part.strip().lower() for part in tablet_cookie.split(";")]
    assert f"path={table.url}" in flags
    assert "httponly" in flags
    assert "samesite=strict" in flags
    # the director's session ends on the tablet: the players get the table, not the console
    assert any(c.startswith("bgtd_director_session=") and "Max-Age=0" in c for c in cookies)
    assert client.get("/director", follow_redirects=False).status_code == 303
    # on the server too: a copy of the director's cookie taken before stops working
    tablet_value = client.cookies["bgtd_table_tablet"]
    client.cookies.set("bgtd_director_session", director_cookie, path="/director")
    assert client.get("/director", follow_redirects=False).status_code == 303
    client.cookies.clear()
    client.cookies.set("bgtd_table_tablet", tablet_value, path=table.url)

    def tablet_sends(action: str, side: Side, inputs: dict[str, Any]) -> Any:
        form = the_form(table_page(client, day, 1), action, side, inputs.get("action"))
        return client.post(
            f"{table.url}/{action}", data={**hidden(form), **inputs}, follow_redirects=False
        )

    page = table_page(client, day, 1)
    assert "data-tablet" in page
    assert tablet_sends("roll", "a", {"die1": "2", "die2": "6"}).status_code == 303
    assert tablet_sends("play", "b", {}).status_code == 303  # side b opened with the 6
    assert tablet_sends("roll", "a", {"die1": "3", "die2": "3"}).status_code == 303
    assert tablet_sends("play", "a", {}).status_code == 303
    sides = acting_sides(client, table)
    assert sides[2:] == ["a", "b", "a", "a"]  # each side's act is its player's own
    # the tablet of table 1 acts at no other table
    assert not forms(table_page(client, day, 2), "roll")
    assert len(events(client, other)) == 2


def test_a_tablets_form_needs_its_csrf_token(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    assert opened_tablet(client, table).status_code == 303
    form = the_form(table_page(client, day, 1), "roll", "a")
    body = {**hidden(form), "die1": "6", "die2": "1"}
    del body["_csrf_token"]
    assert client.post(f"{table.url}/roll", data=body).status_code == 403
    # the director's own form without its token opens no tablet
    client.cookies.clear()
    from tests.api.test_console import signed_in as director_signed_in

    director_signed_in(client)
    answer = client.post(f"/director/tournaments/{day.id}/tables/1/tablet", data={})
    assert answer.status_code == 403
    assert "bgtd_table_tablet" not in answer.headers.get("set-cookie", "")
    assert len(events(client, table)) == 2


def test_the_tablet_signs_out_and_a_copy_of_its_cookie_stops_too(
    client: Client, clock: MovableClock
) -> None:
    # a tablet is a signed session like the others: its sign-out is recorded on the server
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    assert opened_tablet(client, table).status_code == 303
    copy = client.cookies["bgtd_table_tablet"]
    form = form_of_action(table_page(client, day, 1), "tablet-sign-out")
    action = re.search(r'action="([^"]+)"', form)
    assert action is not None

    answer = client.post(action.group(1), data=hidden(form), follow_redirects=False)

    assert answer.status_code == 303
    assert answer.headers["location"] == table.url
    cookies = answer.headers.get_list("set-cookie")
    assert any(c.startswith("bgtd_table_tablet=") and "Max-Age=0" in c for c in cookies)
    client.cookies.clear()
    client.cookies.set("bgtd_table_tablet", copy, path=table.url)
    page = table_page(client, day, 1)
    assert "data-tablet" not in page
    assert not forms(page, "roll")


def test_a_tablet_sign_out_without_its_csrf_token_is_refused(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    assert opened_tablet(client, table).status_code == 303
    answer = client.post(f"{table.url}/tablet/sign-out", data={}, follow_redirects=False)
    assert answer.status_code == 403
    assert "data-tablet" in table_page(client, day, 1)


def test_the_director_signs_out_every_tablet_of_the_tournament_a_lost_one_included(
    client: Client, clock: MovableClock
) -> None:
    from tests.api.test_console import signed_in as director_signed_in

    day = start_tournament(client, clock, 4)
    table = Table(day, 1)
    assert opened_tablet(client, table).status_code == 303
    lost = client.cookies["bgtd_table_tablet"]
    client.cookies.clear()
    director_signed_in(client)
    tablet_page = client.get(f"/director/tournaments/{day.id}/tables/2/tablet").text
    form = form_of_action(tablet_page, "end-tablets")

    answer = client.post(
        f"/director/tournaments/{day.id}/tablets/sign-out",
        data=hidden(form),
        follow_redirects=False,
    )

    assert answer.status_code == 303
    assert answer.headers["location"] == f"/director/tournaments/{day.id}"
    client.cookies.clear()
    client.cookies.set("bgtd_table_tablet", lost, path=table.url)
    assert "data-tablet" not in table_page(client, day, 1)
    # a tablet opened afterwards plays
    assert opened_tablet(client, table).status_code == 303
    assert "data-tablet" in table_page(client, day, 1)
