"""The packages of the wheel: every folder under matchstate, found (those holding only data, such as ``data`` and
``web/static``, as namespace packages, so setuptools names them rather than warning that it would leave them
out), and the migrations (at the repository's top, mapped into the package by pyproject.toml's package-dir). The
rest of the build is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(packages=[*find_namespace_packages(include=["matchstate", "matchstate.*"], exclude=["*.__pycache__"]),
                "matchstate.migrations", "matchstate.migrations.versions"])
