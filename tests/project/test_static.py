"""Static files after `collectstatic`: content-hashed names in the pages, compressed copies served
with `Content-Encoding`, and a long max-age for the hashed names; without collectstatic the pages
still work, with the plain names. Each case runs in a fresh interpreter on its own data dir, with
DEBUG off, the way a deployment runs."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLOTLY = ROOT / "static/vendor/plotly-4.1.2.min.js"
YEAR = 365 * 24 * 3600

# Fetches the login page (anonymous: it needs no table) and the static files it links, through
# the whole middleware stack, whitenoise first.
PROBE = r"""
import json, re, sys, django
django.setup()
from django.test import Client
c = Client()
page = c.get("/login/").content.decode()
links = {
    "css": re.search(r'href="([^"]*cutpoint[^"]*\.css)"', page).group(1),
    "plotly": re.search(r'data-plotly-src="([^"]*)"', page).group(1),
    "htmx": re.search(r'src="([^"]*htmx-2[^"]*)"', page).group(1),
}
out = {"links": links, "responses": {}}
for name, url in [*links.items(), ("plain", "/static/vendor/plotly-4.1.2.min.js")]:
    for enc in ("gzip, deflate, br", "gzip", "identity"):
        r = c.get(url, HTTP_ACCEPT_ENCODING=enc)
        body = b"".join(r.streaming_content) if r.streaming else r.content
        out["responses"][f"{name} {enc}"] = {
            "status": r.status_code,
            "encoding": r.get("Content-Encoding", ""),
            "cache": r.get("Cache-Control", ""),
            "vary": r.get("Vary", ""),
            "length": len(body),
            "head": body[:2].hex(),
        }
        if name == "plotly" and enc == "gzip":
            open(sys.argv[1], "wb").write(body)
print(json.dumps(out))
"""


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CUTPOINT_", "DATABASE_URL"))}
    env.update({"CUTPOINT_DATA_DIR": str(data_dir), "DJANGO_SETTINGS_MODULE": "dashboard.settings"})
    return env


def _run(args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=_env(data_dir), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return result


def _probe(data_dir: Path, body_file: Path) -> tuple[dict[str, str], dict[str, dict[str, Any]], str]:
    result = _run(["-c", PROBE, str(body_file)], data_dir)
    out = json.loads(result.stdout.strip().splitlines()[-1])
    return out["links"], out["responses"], result.stderr


def _brotli_available() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import brotli"], capture_output=True, timeout=60)
    return probe.returncode == 0


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    data_dir = tmp_path_factory.mktemp("static-data")
    _run(["manage.py", "collectstatic", "--noinput", "-v", "0"], data_dir)
    yield data_dir


def test_collectstatic_writes_hashed_and_compressed_files(collected: Path) -> None:
    root = collected / "staticfiles"
    manifest = json.loads((root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["vendor/plotly-4.1.2.min.js"]
    assert re.fullmatch(r"vendor/plotly-4\.1\.2\.min\.[0-9a-f]{12}\.js", hashed)
    assert (root / hashed).read_bytes() == PLOTLY.read_bytes()
    assert gzip.decompress((root / f"{hashed}.gz").read_bytes()) == PLOTLY.read_bytes()
    assert (root / f"{hashed}.br").exists() == _brotli_available()
    # Only hashed names are kept in STATIC_ROOT; the plain ones are served from the app's folders.
    assert not (root / "vendor/plotly-4.1.2.min.js").exists()


def test_pages_link_hashed_names_served_compressed_and_cached_for_years(
    collected: Path, tmp_path: Path
) -> None:
    links, responses, _ = _probe(collected, tmp_path / "plotly.gz")
    assert re.fullmatch(r"/static/cutpoint/cutpoint\.[0-9a-f]{12}\.css", links["css"])
    assert re.fullmatch(r"/static/vendor/plotly-4\.1\.2\.min\.[0-9a-f]{12}\.js", links["plotly"])
    assert re.fullmatch(r"/static/vendor/htmx-2\.0\.11\.min\.[0-9a-f]{12}\.js", links["htmx"])
    size = PLOTLY.stat().st_size
    for name in ("css", "plotly", "htmx"):
        for enc in ("gzip, deflate, br", "gzip", "identity"):
            r = responses[f"{name} {enc}"]
            assert r["status"] == 200, (name, enc)
            cache = str(r["cache"])
            max_age = int(re.search(r"max-age=(\d+)", cache).group(1))  # type: ignore[union-attr]
            assert max_age >= YEAR and "immutable" in cache and "public" in cache, (name, cache)
            assert "Accept-Encoding" in str(r["vary"])
    plotly_gzip = responses["plotly gzip"]
    assert plotly_gzip["encoding"] == "gzip" and plotly_gzip["head"] == "1f8b"
    assert int(plotly_gzip["length"]) < size / 2  # 4.8 MB down to about 1.5 MB
    assert gzip.decompress((tmp_path / "plotly.gz").read_bytes()) == PLOTLY.read_bytes()
    best = responses["plotly gzip, deflate, br"]
    if _brotli_available():
        assert best["encoding"] == "br" and int(best["length"]) < int(plotly_gzip["length"])
    else:
        assert best["encoding"] == "gzip"
    plain = responses["plotly identity"]
    assert plain["encoding"] == "" and plain["length"] == size


def test_after_collectstatic_no_file_is_reported_unhashed(collected: Path, tmp_path: Path) -> None:
    """whitenoise asks the storage about names that are no file ("x.min.js" → "x.js") when it
    starts; those are no reason for a warning (issue 32: five WARNINGs at every `make run`)."""
    _, _, log = _probe(collected, tmp_path / "plotly.gz")
    assert "without a content hash" not in log, log


def test_plain_names_still_work_with_a_short_max_age(collected: Path, tmp_path: Path) -> None:
    _, responses, _ = _probe(collected, tmp_path / "plotly.gz")
    r = responses["plain gzip"]
    assert r["status"] == 200
    max_age = int(re.search(r"max-age=(\d+)", str(r["cache"])).group(1))  # type: ignore[union-attr]
    assert max_age < 3600 and "immutable" not in str(r["cache"])


def test_without_collectstatic_pages_still_render_with_plain_names(tmp_path: Path) -> None:
    links, responses, log = _probe(tmp_path / "fresh", tmp_path / "plotly.gz")
    assert links["css"] == "/static/cutpoint/cutpoint.css"
    assert links["plotly"] == "/static/vendor/plotly-4.1.2.min.js"
    assert responses["plotly gzip"]["status"] == 200
    assert "is served without a content hash: no staticfiles manifest" in log


def test_make_run_collects_static_files_before_serving() -> None:
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "manage.py collectstatic --noinput" in recipe
    assert recipe.index("collectstatic") < recipe.index("daphne")
