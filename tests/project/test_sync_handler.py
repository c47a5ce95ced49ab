"""The ASGI handler runs the middleware and the view in the request's thread in one go: a request
crosses between the event loop and that thread a few times, not once per middleware hook
(dashboard/sync_handler.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler

from dashboard.sync_handler import SyncChainASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def crossings(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often code went from the loop to a thread (sync_to_async) and back (async_to_sync)."""
    counts = {"sync_to_async": 0, "async_to_sync": 0}
    to_thread, to_loop = SyncToAsync.__call__, AsyncToSync.__call__

    async def counted_to_thread(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["sync_to_async"] += 1
        return await to_thread(self, *args, **kwargs)

    def counted_to_loop(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["async_to_sync"] += 1
        return to_loop(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted_to_thread)
    monkeypatch.setattr(AsyncToSync, "__call__", counted_to_loop)
    yield counts


async def get(app: ASGIHandler, path: str) -> dict[str, Any]:
    communicator = HttpCommunicator(app, "GET", path, headers=[(b"host", b"127.0.0.1")])
    response: dict[str, Any] = await communicator.get_response(timeout=30)
    return response


async def test_the_login_page_is_served_with_the_middleware_applied(crossings: dict[str, int]) -> None:
    response = await get(SyncChainASGIHandler(), "/login/")
    headers = {k.decode().lower(): v.decode() for k, v in response["headers"]}
    assert response["status"] == 200
    assert b"<form" in response["body"]
    assert headers["x-frame-options"] == "DENY"  # XFrameOptionsMiddleware ran
    assert "csrftoken=" in headers.get("set-cookie", "")  # CsrfViewMiddleware ran


async def test_a_request_crosses_between_loop_and_thread_a_few_times_only(
    crossings: dict[str, int],
) -> None:
    await get(SyncChainASGIHandler(), "/login/")
    ours = dict(crossings)
    crossings.update(sync_to_async=0, async_to_sync=0)
    await get(ASGIHandler(), "/login/")
    django_s = dict(crossings)
    # The whole chain goes to the thread once; the request signals and closing the response are
    # Django's own crossings.
    assert ours["async_to_sync"] == 0
    assert ours["sync_to_async"] <= 4
    assert django_s["sync_to_async"] + django_s["async_to_sync"] > 2 * ours["sync_to_async"]


async def test_a_missing_page_is_a_404_not_an_error(crossings: dict[str, int]) -> None:
    response = await get(SyncChainASGIHandler(), "/login/nowhere/")
    assert response["status"] in (302, 404)  # the login wall or the resolver: never a 500


async def test_requests_reuse_an_idle_thread_instead_of_starting_one() -> None:
    import threading

    from asgiref.sync import sync_to_async

    from dashboard.sync_handler import RequestThreads

    async def served(app: SyncChainASGIHandler) -> int:
        """The status, once the handler has finished with the request (its thread given back)."""
        communicator = HttpCommunicator(app, "GET", "/login/", headers=[(b"host", b"127.0.0.1")])
        response = await communicator.get_response(timeout=30)
        await communicator.wait(timeout=30)
        return int(response["status"])

    app = SyncChainASGIHandler()
    assert await served(app) == 200
    assert app.request_threads.idle() == 1
    started = threading.active_count()
    for _ in range(3):
        assert await served(app) == 200
    assert app.request_threads.idle() == 1
    assert threading.active_count() == started

    threads = RequestThreads(keep=1)
    first, second = threads.take(), threads.take()
    assert first is not second
    idents = {
        await sync_to_async(threading.get_ident, thread_sensitive=False, executor=t)()
        for t in (first, second)
    }
    assert len(idents) == 2
    first.give_back()
    second.give_back()  # beyond `keep`: shut down, not kept
    assert threads.idle() == 1 and threads.take() is first


async def test_a_thread_given_back_while_its_call_runs_is_lent_again_only_when_it_is_done() -> None:
    import asyncio
    import threading

    from dashboard.sync_handler import RequestThreads

    threads = RequestThreads()
    thread = threads.take()
    release = threading.Event()
    running = thread.submit(release.wait, 30)
    thread.give_back()  # a request that ended (its client went away) while its view still runs
    assert threads.idle() == 0
    release.set()
    # The thread's own done callback was added first, so it has run when this future resolves.
    await asyncio.wrap_future(running)
    assert threads.idle() == 1 and threads.take() is thread


async def test_a_live_update_published_from_a_lent_thread_reaches_the_group_every_time() -> None:
    """A view publishes through async_to_sync (sessions_app/runtime/live.py): on a thread lent to
    one request after another, it is handed to the server's loop each time, never refused."""
    import threading

    from asgiref.sync import ThreadSensitiveContext, sync_to_async
    from channels.layers import get_channel_layer

    from dashboard.sync_handler import RequestThreads
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime import live

    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(live.group_name(7), channel)

    def view(n: int) -> int:
        live.publish(7, LiveKind.ACTIVE_NODE, {"key": f"k{n}", "previous": None})
        return threading.get_ident()

    threads = RequestThreads()
    idents = []
    for n in range(3):
        thread = threads.take()
        async with ThreadSensitiveContext(executor=thread):
            idents.append(await sync_to_async(view)(n))
        thread.give_back()
        message = await layer.receive(channel)
        assert message["payload"]["key"] == f"k{n}"  # delivered, not logged as undelivered
    assert len(set(idents)) == 1  # one thread, lent three times


async def test_a_thread_left_with_a_running_loop_is_retired_not_lent_again() -> None:
    """What Playwright's sync API does to its thread (an event loop marked running between calls)
    must never reach a request: such a thread ends instead of going back to the idle ones."""
    import asyncio

    from dashboard.sync_handler import RequestThreads

    loop = asyncio.new_event_loop()
    threads = RequestThreads()
    thread = threads.take()
    await asyncio.wrap_future(thread.submit(asyncio.events._set_running_loop, loop))
    thread.give_back()
    assert thread.retired and threads.idle() == 0
    assert threads.take() is not thread
    loop.close()
