"""No request input can make a page fail: NUL bytes, unpaired surrogates, huge or malformed numbers
and ids answer 400 (refused, logged) or an ordinary page with the bad value ignored (logged) — never
a 500. Stored text with an unpaired surrogate renders too."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DataError, connection, transaction
from django.http import HttpResponse, QueryDict
from django.test import Client, RequestFactory
from django.urls import reverse

from sessions_app import store
from sessions_app.middleware import BadInput, RejectBadInputMiddleware, scrub_surrogates
from sessions_app.models import CompactionTask, Node
from sessions_app.params import Params, parse_id
from sessions_app.presenters import live as live_p
from tests.web.builders import Built
from tests.web.conftest import HX
from tests.web.test_pages import page_urls

# Also on PostgreSQL (make pytest-pg), where a NUL reaching the database is a DataError.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

HUGE = "9" * 30
TOO_MANY_DIGITS = "1" * 5000  # int() itself refuses more than 4300 digits
SUPERSCRIPT_TWO = "%C2%B2"  # "²": str.isdigit() says yes, int() says no

Url = Callable[[Built], str]


def _session(path: str = "") -> Url:
    return lambda b: f"/sessions/{b.session.pk}/{path}"


def _tree(query: str) -> Url:
    return lambda b: f"/sessions/{b.session.pk}/tree/?{query.replace('KEY', b.keys[0])}"


# (address, the status it must get). 400: refused before any view ran; 200: the value was ignored.
BAD_GETS: dict[str, tuple[Url, int]] = {
    "list: NUL in the search": (lambda b: "/?q=%00", 400),
    "list: NUL inside a longer search": (lambda b: "/?q=abc%00def", 400),
    "list: NUL in a parameter name": (lambda b: "/?q%00=x", 400),
    "list: invalid UTF-8 (a surrogate's bytes) in the search": (lambda b: "/?q=%ED%A0%80", 200),
    "list: search for a superscript digit": (lambda b: f"/?q={SUPERSCRIPT_TWO}", 200),
    "list: search for #superscript digit": (lambda b: f"/?q=%23{SUPERSCRIPT_TWO}", 200),
    "list: search for a huge id": (lambda b: f"/?q={HUGE}", 200),
    "list: search longer than any title": (lambda b: "/?q=" + "x" * 5000, 200),
    "list: page is text": (lambda b: "/?page=abc", 200),
    "list: page is a float overflow": (lambda b: "/?page=1e400", 200),
    "list: page is huge": (lambda b: f"/?page={HUGE}", 200),
    "list: page is negative": (lambda b: "/?page=-3", 200),
    "list: page has 5000 digits": (lambda b: f"/?page={TOO_MANY_DIGITS}", 200),
    "list: NUL in the source filter": (lambda b: "/?source=%00", 400),
    "list: unknown source": (lambda b: "/?source=nope", 200),
    "list: unknown state": (lambda b: "/?state=%27%3B--", 200),
    "session: NUL in the focus node": (lambda b: f"/sessions/{b.session.pk}/?node=%00", 400),
    "session: focus node longer than a key": (lambda b: f"/sessions/{b.session.pk}/?node={'k' * 500}", 200),
    "session: unknown focus node": (lambda b: f"/sessions/{b.session.pk}/?node=nope", 200),
    "session: NUL in the tab": (lambda b: f"/sessions/{b.session.pk}/?tab=%00", 400),
    "session: huge id": (lambda b: f"/sessions/{HUGE}/", 404),
    "tree: NUL in the search": (_tree("q=%00"), 400),
    "tree: NUL in the line key": (_tree("line=%00"), 400),
    "tree: NUL in the focus": (_tree("focus=%00"), 400),
    "tree: float overflow and huge window bounds": (_tree(f"line=KEY&a=1e400&b={HUGE}"), 200),
    "tree: negative and text window bounds": (_tree("line=KEY&a=-5&b=abc"), 200),
    "tree: superscript window bounds": (_tree(f"line=KEY&a={SUPERSCRIPT_TWO}&b=2"), 200),
    "tree: unknown direction": (_tree("line=KEY&a=0&b=2&dir=%3Cscript%3E"), 200),
    "tree: line key longer than a key": (_tree("line=" + "k" * 500), 200),
    "cut panel: float overflow keep": (_session("cut/?keep=1e400"), 200),
    "cut panel: huge window": (_session(f"cut/?window={HUGE}&reserve=-1"), 200),
    "cut panel: NUL in compat": (_session("cut/?compat=%00"), 400),
    "context panel: NUL in a switch": (_session("context/?all=%00"), 400),
    "runs panel: odd switch": (_session("runs/?hidden=2"), 200),
    "node: NUL in the key": (lambda b: f"/sessions/{b.session.pk}/nodes/%00/", 400),
    "node: key longer than a key": (lambda b: f"/sessions/{b.session.pk}/nodes/{'k' * 500}/", 404),
    "compaction: huge id": (lambda b: f"/compactions/{HUGE}/", 404),
    "run: huge id": (lambda b: f"/runs/{HUGE}/", 404),
    "agents: superscript session id": (lambda b: f"/agents/?session={SUPERSCRIPT_TWO}", 200),
    "agents: huge session id": (lambda b: f"/agents/?session={HUGE}", 200),
    "agents: negative session id": (lambda b: "/agents/?session=-1", 200),
    "agents: NUL in the session id": (lambda b: "/agents/?session=%00", 400),
}


def assert_no_technical_page(response: Any) -> None:
    html = response.content.decode(errors="replace")
    for leak in ("Traceback", "DATABASES", "REDIS_URL", "SECRET_KEY", "Using the URLconf", "site-packages"):
        assert leak not in html, leak


@pytest.mark.parametrize("case", list(BAD_GETS), ids=list(BAD_GETS))
def test_bad_query_input_never_fails(case: str, viewer_client: Client, built: Built) -> None:
    url_for, status = BAD_GETS[case]
    url = url_for(built)
    for headers in ({}, HX):
        response = viewer_client.get(url, **headers)
        assert response.status_code == status, (url, headers)
        assert_no_technical_page(response)
        if status == 400:
            assert "not allowed" in response.content.decode()


def test_a_nul_in_any_parameter_of_any_page_is_refused(viewer_client: Client, built: Built) -> None:
    for url in page_urls(built):
        for query in ("anything=%00", "q=ok&page=1%002"):
            response = viewer_client.get(f"{url}?{query}", **HX)
            assert response.status_code == 400, (url, query)
            assert_no_technical_page(response)


def test_nul_search_is_refused_and_logged_on_this_backend(
    viewer_client: Client, built: Built, caplog: pytest.LogCaptureFixture
) -> None:
    """The issue's case: `GET /?q=%00` was a PostgreSQL DataError and Django's technical 500 page."""
    with caplog.at_level(logging.WARNING):
        response = viewer_client.get("/?q=%00")
    assert response.status_code == 400
    assert 'id="error-400"' in response.content.decode()
    assert_no_technical_page(response)
    assert any("NUL or an unpaired surrogate" in r.getMessage() for r in caplog.records)


def test_views_refuse_nul_even_without_the_middleware(
    viewer_client: Client, built: Built, settings: object
) -> None:
    """Belt and braces: the views' own parameter parsing refuses what the middleware would."""
    middleware = [m for m in settings.MIDDLEWARE if not m.endswith("RejectBadInputMiddleware")]  # type: ignore[attr-defined]
    settings.MIDDLEWARE = middleware  # type: ignore[attr-defined]
    for url in ("/?q=%00", f"/sessions/{built.session.pk}/nodes/%00/", _tree("q=%00")(built)):
        response = viewer_client.get(url, **HX)
        assert response.status_code == 400, url
        assert_no_technical_page(response)


def test_ignored_values_are_logged(
    viewer_client: Client, built: Built, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="sessions_app.params"):
        assert viewer_client.get("/?page=abc&source=nope").status_code == 200
    messages = [r.getMessage() for r in caplog.records]
    assert any("'page'" in m and "not a whole number" in m for m in messages)
    assert any("'source'" in m and "not one of the accepted values" in m for m in messages)


def test_cut_panel_reports_bad_numbers_instead_of_failing(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(_session(f"cut/?keep=1e400&window={HUGE}")(built), **HX).content.decode()
    assert "keep must be a whole number" in html
    assert "window must be between" in html


def test_bad_page_numbers_show_the_first_page(viewer_client: Client, built: Built) -> None:
    for page in ("abc", "1e400", HUGE, "-1", "0"):
        response = viewer_client.get("/", {"page": page}, **HX)
        assert response.status_code == 200
        assert built.session.title in response.content.decode()


# --- forms -----------------------------------------------------------------------------------------


def test_nul_in_action_forms_is_refused_and_writes_nothing(staff_client: Client, built: Built) -> None:
    s = built.session
    nodes = Node.objects.filter(session=s).count()
    active = s.active_node_id
    posts = {
        reverse("sessions_app:switch_node", args=[s.pk]): {"key": "a\x00b"},
        reverse("sessions_app:send_prompt", args=[s.pk]): {"prompt": "hello\x00world"},
        reverse("sessions_app:compact_now", args=[s.pk]): {"instructions": "keep\x00this"},
    }
    for url, data in posts.items():
        for headers in ({}, HX):
            response = staff_client.post(url, data, **headers)
            assert response.status_code == 400, url
            assert_no_technical_page(response)
    s.refresh_from_db()
    assert Node.objects.filter(session=s).count() == nodes
    assert s.active_node_id == active
    assert not CompactionTask.objects.filter(session=s).exists()


def test_switch_to_a_key_longer_than_any_key_is_refused_politely(staff_client: Client, built: Built) -> None:
    response = staff_client.post(
        reverse("sessions_app:switch_node", args=[built.session.pk]), {"key": "k" * 5000}, **HX
    )
    assert response.status_code == 200
    assert response["X-Cutpoint-Outcome"] == "refused"


NUL_SESSION_COOKIE = 'sessionid="' + "\\000" * 8 + '"'  # http.cookies decodes the escapes to NULs


def test_a_session_cookie_of_nuls_is_ignored(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    """The session middleware would look the key up in the database (a DataError on PostgreSQL)."""
    with caplog.at_level(logging.WARNING):
        page = client.get("/", HTTP_COOKIE=NUL_SESSION_COOKIE)
        login = client.get(reverse("login"), HTTP_COOKIE=NUL_SESSION_COOKIE)
    assert page.status_code == 302 and page["Location"].startswith(reverse("login"))
    assert login.status_code == 200
    assert any("cookie" in r.getMessage() for r in caplog.records)


def test_nul_in_the_login_form_is_refused(client: Client, viewer: User) -> None:
    response = client.post(reverse("login"), {"username": "viewer\x00", "password": "x"})
    assert response.status_code == 400
    assert_no_technical_page(response)


# --- what HTTP cannot carry, checked where it would be caught ----------------------------------------


@pytest.mark.parametrize("value", ["\ud800", "a\udfffb", "\x00"], ids=["high", "low", "nul"])
def test_middleware_refuses_unpaired_surrogates_and_nul(value: str) -> None:
    """Django decodes the query string and forms with errors="replace", so an unpaired surrogate
    cannot arrive over HTTP today; the middleware still refuses one wherever it appears."""
    middleware = RejectBadInputMiddleware(lambda request: HttpResponse("ok"))
    rf = RequestFactory()
    request = rf.get("/")
    query = QueryDict(mutable=True)
    query["q"] = value
    request.GET = query  # type: ignore[assignment]
    with pytest.raises(BadInput):
        middleware(request)
    post = rf.post("/", {"fine": "x"})
    form = QueryDict(mutable=True)
    form["prompt"] = value
    post.POST = form  # type: ignore[assignment]
    with pytest.raises(BadInput):
        middleware(post)
    path = rf.get("/")
    path.path_info = f"/sessions/1/nodes/{value}/"
    with pytest.raises(BadInput):
        middleware(path)
    assert middleware(rf.get("/", {"q": "ordinary ü text"})).status_code == 200


def test_params_helpers() -> None:
    rf = RequestFactory()
    p = Params(rf.get("/", {"n": " 42 ", "big": HUGE, "sup": "²", "flag": "1", "c": "b", "t": " x "}))
    assert p.integer("n") == 42
    assert p.integer("big") is None and p.integer("sup", 7) == 7
    assert p.integer("n", lo=50) is None and p.integer("missing", 3) == 3
    assert p.flag("flag") and not p.flag("n")
    assert p.choice("c", {"a", "b"}) == "b" and p.choice("c", {"a"}) == ""
    assert p.text("t") == "x" and p.text("t", strip=False) == " x "
    assert p.page("big") == 1 and p.page("n") == 42
    assert [parse_id(v) for v in ("12", "0", "-1", "+1", "²", HUGE, "", None)] == [12] + [None] * 7


# --- stored text with an unpaired surrogate --------------------------------------------------------

SURROGATE_TEXT = "broken \ud800 pair and a lone low \udc00 too"


def test_a_node_with_an_unpaired_surrogate_renders_on_every_page(viewer_client: Client, built: Built) -> None:
    """SQLite stores whatever a JSON escape such as "\\ud800" decoded to, and every page of the
    session must still render (the character shows as U+FFFD). PostgreSQL refuses to store it in a
    JSON column at all, so there the check is that the write fails and nothing is stored."""
    s = built.session
    assert s.active_node_id is not None
    parent = Node.objects.get(pk=s.active_node_id).key
    content = [{"type": "text", "text": SURROGATE_TEXT}]
    if connection.vendor == "postgresql":
        before = Node.objects.filter(session=s).count()
        with pytest.raises((DataError, ValueError)), transaction.atomic():
            store.append(s, parent, kind="message", role="user", content=content)
        assert Node.objects.filter(session=s).count() == before
        return
    node = store.append(s, parent, kind="message", role="user", content=content)
    store.append(
        s, node.key, kind="message", role="assistant", content=[{"type": "text", "text": "answer \udfff"}]
    )
    assert Node.objects.get(pk=node.pk).content == content  # stored as is
    s.refresh_from_db()
    urls = [
        *page_urls(built),
        reverse("sessions_app:node_detail", args=[s.pk, node.key]),
        reverse("sessions_app:session_tree", args=[s.pk]) + "?q=broken",
        reverse("sessions_app:session_detail", args=[s.pk]) + f"?node={node.key}",
    ]
    seen_replacement = False
    for url in urls:
        for headers in ({}, HX):
            response = viewer_client.get(url, **headers)
            assert response.status_code == 200, (url, headers)
            html = response.content.decode("utf-8")  # strict: it is valid UTF-8
            seen_replacement = seen_replacement or "broken \ufffd pair" in html
    assert seen_replacement


def test_live_fragments_replace_unpaired_surrogates(built: Built) -> None:
    html = live_p.delta_fragment({"task_id": 1, "part": "history", "text": "delta \ud800"})
    assert "delta \ufffd" in html
    html.encode("utf-8")
    assert scrub_surrogates("ok \U0001f600 \udc00") == "ok \U0001f600 \ufffd"
