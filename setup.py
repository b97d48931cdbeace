"""The packages of the wheel: every package under matchstate, found, and the migrations (at the repository's top,
mapped into the package by pyproject.toml's package-dir). The rest of the build is in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["matchstate", "matchstate.*"]), "matchstate.migrations"])
