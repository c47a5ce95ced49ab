"""Only the C extension lives here; the rest of the project's metadata is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sessions_app.o200k._o200k",
            ["sessions_app/o200k/_o200k.c"],
            depends=["sessions_app/o200k/_o200k_unicode.h"],
            extra_compile_args=["-O2"],
        )
    ]
)
