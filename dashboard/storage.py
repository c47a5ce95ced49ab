"""Static files with content hashes in their names and gzip copies next to them (Brotli ones too
when the `brotli` package is installed), written by `collectstatic` into STATIC_ROOT; whitenoise
serves the hashed names with a ten-year `max-age, immutable` and the compressed copy the browser
accepts (`Content-Encoding`).

`make run` and the deployment steps run collectstatic. A data directory where it never ran (a
fresh checkout's `manage.py` command, a test's temporary directory) still works: with no manifest,
or a name missing from it, a page links the file by its plain name, which whitenoise serves
straight from the app's static folders (WHITENOISE_USE_FINDERS) with a short max-age. That is
logged once per name, so a deployment that forgot collectstatic shows up in its log instead of as
a 500 on every page (Django's manifest storage raises there).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator

from django.contrib.staticfiles import finders
from whitenoise.storage import CompressedManifestStaticFilesStorage

log = logging.getLogger(__name__)


class CompressedManifestWithFallbackStorage(CompressedManifestStaticFilesStorage):
    _unhashed_logged: set[str] = set()

    def stored_name(self, name: str) -> str:
        try:
            if self.hashed_files:
                return str(super().stored_name(name))
            reason = "no staticfiles manifest (run `manage.py collectstatic`)"
        except ValueError as exc:
            reason = str(exc)
        if name not in self._unhashed_logged:
            self._unhashed_logged.add(name)
            # whitenoise asks for names that are no file at all when it tests whether a file name
            # carries a hash ("htmx-2.0.11.min.js" → "htmx-2.0.11.js"); only a real file missing
            # from the manifest is worth a warning (issue 32: five at every start after collectstatic).
            if finders.find(name):
                log.warning("static file %s is served without a content hash: %s", name, reason)
        return name

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        """Only the hashed names are kept (WHITENOISE_KEEP_ONLY_HASHED_FILES), and a hashed name
        stands for its content: compressed copies already next to one are current, so a repeated
        collectstatic (every `make run`) does not compress the 4.8 MB plotly bundle again."""
        if not self.keep_only_hashed_files:
            yield from super().compress_files(paths)
            return
        probe = self.create_compressor(quiet=True)
        suffixes = [s for s, on in ((".gz", probe.use_gzip), (".br", probe.use_brotli)) if on]
        todo = [p for p in paths if not all(os.path.exists(self.path(p) + s) for s in suffixes)]
        yield from super().compress_files(todo)
