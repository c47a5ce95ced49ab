"""The C extensions (the o200k counter, the pi line scanner), and the dashboard's templates and
static files copied into the wheel; the rest of the project's metadata is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ASSETS = ("templates", "static")  # beside the project in a checkout (dashboard/settings.py, ASSETS_DIR)


class BuildWithAssets(build_py):
    """`pip install .` builds a wheel from the packages only: templates/ and static/ sit beside
    them, so they are copied into dashboard/assets/, where the installed settings look for them."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads them from the checkout
            return
        target = Path(self.build_lib) / "dashboard" / "assets"
        for name in ASSETS:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True)


setup(
    cmdclass={"build_py": BuildWithAssets},
    ext_modules=[
        Extension(
            "sessions_app.o200k._o200k",
            ["sessions_app/o200k/_o200k.c"],
            depends=["sessions_app/o200k/_o200k_unicode.h"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sessions_app.formats.pi._scan",
            ["sessions_app/formats/pi/_scan.c"],
            depends=["sessions_app/formats/pi/_scan_json.h", "sessions_app/formats/pi/_scan_head.h"],
            extra_compile_args=["-O2"],
        ),
    ],
)
