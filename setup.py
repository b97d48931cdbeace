"""The packages, found rather than listed (a package left out of a list built a wheel that did not import),
and the Alembic migrations, kept at the top of the repository, shipped inside as ``matchstate.migrations``
(pyproject.toml maps that package to ``migrations/``). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["matchstate", "matchstate.*"]), "matchstate.migrations"])
