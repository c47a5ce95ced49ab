"""ASGI entry point: HTTP through Django, websockets through Channels (login required, and only from
the dashboard's own origin: sessions_app.routing.ExactOriginValidator)."""

import logging
import os

from dashboard.daphne_bodies import SpooledBodies, install
from dashboard.sync_handler import get_asgi_application

# Under daphne (`make run`, `manage.py serve`: daphne imports this module before it accepts a
# connection), large request bodies reach Django from Twisted's temporary file, never from memory.
install()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
# Django must be set up before importing anything that touches models. Its handler runs the
# middleware and the view in one thread, in one go (dashboard/sync_handler.py).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from dashboard.warmup import start_serving  # noqa: E402
from sessions_app import conf  # noqa: E402
from sessions_app.routing import ExactOriginValidator, websocket_urlpatterns  # noqa: E402
from sessions_app.runtime.sweeper import StartSweeper, when_reactor_runs  # noqa: E402

# Daphne imports this module before it accepts a connection: the work a fresh process would do in
# its first requests is done here, once, and only then does a `manage.py serve` worker's socket
# listen (dashboard/warmup.py).
logging.getLogger(__name__).info("warmed up in %s", start_serving(django_asgi_app.request_threads))

if conf.get("CUTPOINT_WATCH_FOLDERS"):
    # `cutpoint serve --watch`: this worker follows the session folders (sessions_app/watch/).
    from sessions_app.watch.loop import start_in_server

    when_reactor_runs(lambda: start_in_server(str(conf.get("CUTPOINT_WATCH_FOLDERS"))))

application = StartSweeper(
    ProtocolTypeRouter(
        {
            "http": SpooledBodies(django_asgi_app),
            "websocket": ExactOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)
