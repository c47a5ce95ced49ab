"""The Redis channel layer that live updates travel on (docs/architecture.md, "Live updates").

channels_redis's layer, changed in three ways so that an open page keeps hearing a session
under load and across Redis outages:

1. **Reads wait longer than the blocking pop.** channels_redis waits for a message with a
   `BZPOPMIN` that Redis ends empty after `brpop_timeout` (5 s), and redis-py 8 gives every
   connection a 5 s read timeout by default. The two deadlines race: on a busy machine Redis's
   empty answer arrives after the client gave up, `receive()` raises `TimeoutError`, the
   websocket consumer dies with it and the page hears nothing more (a message popped as the read
   timed out is lost too). Here a connection reads for the pop's timeout plus `READ_MARGIN`.
2. **`receive()` does not fail while Redis is away**: it waits for Redis to answer again.
   `group_add` and `group_discard` do not fail either; the membership is kept here and written
   when Redis answers.
3. **A watcher** (one per event loop) asks Redis for its `run_id` every `watch_interval`. When
   Redis answers after something failed, or answers with another `run_id` (it restarted and
   forgot every group), the layer writes every local channel's groups again and hands each
   channel a `layer.reconnected` message, on which the consumer sends a fresh snapshot: what was
   published meanwhile is lost, and the snapshot repairs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import Any

from channels_redis.core import RedisChannelLayer
from channels_redis.utils import create_pool
from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

log = logging.getLogger(__name__)

RECONNECTED = "layer.reconnected"
# How much later than the pop's own timeout a read may end: covers a machine so busy that Redis
# answers seconds late, while a Redis that stopped answering is still noticed.
READ_MARGIN = 10.0
WATCH_INTERVAL = 0.5  # seconds between two run_id checks
# A check that takes longer counts as Redis being away. A stopped Redis refuses at once; this only
# catches one that hangs, and must not take a Redis slowed by a busy machine for a lost one.
WATCH_TIMEOUT = 5.0
RETRY_SECONDS = 0.5  # after a failed receive, the wait before the next try (unless Redis is back)
LAYER_ERRORS = (RedisError, OSError)  # redis-py's connection and timeout errors, socket errors


class LiveRedisLayer(RedisChannelLayer):
    def __init__(self, *args: Any, watch_interval: float = WATCH_INTERVAL, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.watch_interval = watch_interval
        self._groups: dict[str, set[str]] = defaultdict(set)  # local channel → its groups
        self._notices: dict[str, asyncio.Event] = {}  # local channel → "Redis is back" flag
        self._pops: dict[str, asyncio.Future[Any]] = {}  # local channel → its pending receive
        self._watchers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        self._failed = False  # something failed since Redis last answered

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        host.setdefault("socket_timeout", self.brpop_timeout + READ_MARGIN)
        return create_pool(host)

    # --- membership, kept here as well as in Redis ---------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        self._groups[channel].add(group)
        self._notice(channel)
        try:
            await super().group_add(group, channel)
        except LAYER_ERRORS as exc:
            self._failed = True  # the watcher writes it when Redis answers
            log.warning("Redis unreachable: %s joins %s once it answers (%s)", channel, group, exc)

    async def group_discard(self, group: str, channel: str) -> None:
        groups = self._groups.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self._groups[channel]
                self._notices.pop(channel, None)
        try:
            await super().group_discard(group, channel)
        except LAYER_ERRORS as exc:  # the group expires on its own (group_expiry)
            log.warning("Redis unreachable: %s not removed from %s (%s)", channel, group, exc)

    def _notice(self, channel: str) -> asyncio.Event:
        notice = self._notices.get(channel)
        if notice is None:
            notice = self._notices[channel] = asyncio.Event()
        return notice

    # --- receiving ------------------------------------------------------------------------------

    async def receive(self, channel: str) -> dict[str, Any]:
        self._ensure_watcher()
        notice = self._notice(channel)
        while True:
            if notice.is_set():
                notice.clear()
                return {"type": RECONNECTED}
            # The pending pop is kept for the next call rather than cancelled when the notice wins:
            # a cancelled channels_redis receive can swallow the cancellation (redis-py's read
            # timeout turns it into a TimeoutError and retries) and block until a message comes.
            pop = self._pops.get(channel)
            if pop is None:
                pop = self._pops[channel] = asyncio.ensure_future(super().receive(channel))
            wake = asyncio.ensure_future(notice.wait())
            try:
                await asyncio.wait({pop, wake}, return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:  # the consumer is gone
                self._abandon(channel)
                raise
            finally:
                wake.cancel()
            if not pop.done():
                continue  # Redis is back: the notice is set
            del self._pops[channel]
            try:
                return pop.result()
            except LAYER_ERRORS as exc:
                self._failed = True
                log.warning("live updates paused: Redis unreachable (%s)", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(notice.wait(), RETRY_SECONDS)  # pacing the next try, not sync

    def _abandon(self, channel: str) -> None:
        """Forget a channel whose consumer stopped receiving (its pop is cancelled, not awaited)."""
        pop = self._pops.pop(channel, None)
        if pop is not None:
            pop.cancel()
            pop.add_done_callback(_retrieve)
        if channel not in self._groups:
            self._notices.pop(channel, None)

    # --- the watcher ----------------------------------------------------------------------------

    def _ensure_watcher(self) -> None:
        loop = asyncio.get_running_loop()
        task = self._watchers.get(loop)
        if task is None or task.done():
            for old in [lp for lp in self._watchers if lp.is_closed()]:
                del self._watchers[old]
            self._watchers[loop] = loop.create_task(self._watch(), name="live-redis-watcher")

    def _probe(self, index: int) -> Redis:
        # Its own connection, without redis-py's retries: an outage must show, not be waited out.
        host = dict(self.hosts[index])
        host.update(
            socket_timeout=WATCH_TIMEOUT, socket_connect_timeout=WATCH_TIMEOUT, retry=Retry(NoBackoff(), 0)
        )
        return Redis(connection_pool=create_pool(host))

    async def _watch(self) -> None:
        probes = [self._probe(i) for i in range(self.ring_size)]
        run_ids: list[str | None] = [None] * self.ring_size
        try:
            while True:
                answered = True
                restarted = False
                for i, probe in enumerate(probes):
                    try:
                        info = await probe.info("server")
                    except LAYER_ERRORS:
                        answered = False
                        self._failed = True
                        continue
                    run_id = str(info.get("run_id") or "")
                    restarted = restarted or (run_ids[i] is not None and run_ids[i] != run_id)
                    run_ids[i] = run_id
                if answered and (self._failed or restarted) and await self._resubscribe():
                    self._failed = False
                await asyncio.sleep(self.watch_interval)  # a poll's period, not synchronization
        finally:
            for probe in probes:
                with contextlib.suppress(Exception):
                    await probe.aclose(close_connection_pool=True)

    async def _resubscribe(self) -> bool:
        """Write every local membership again, then wake every local channel (True), or False
        when Redis failed again meanwhile."""
        try:
            for channel, groups in list(self._groups.items()):
                for group in list(groups):
                    await super().group_add(group, channel)
        except LAYER_ERRORS as exc:
            log.warning("Redis answered, then failed while groups were restored (%s)", exc)
            return False
        log.info("Redis answers again: %d channels resubscribed", len(self._groups))
        for channel in list(self._groups):
            self._notice(channel).set()
        return True


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Read an abandoned receive's outcome, so asyncio does not report it as never retrieved."""
    if not task.cancelled():
        task.exception()
