"""The routes that run the server in the field rather than the match: the tablet setup page and the web app's
manifest (mounted on the app by :func:`mount`)."""

from __future__ import annotations

from fastapi import FastAPI

from . import install, setup


def mount(app: FastAPI) -> None:
    app.include_router(setup.router)
    app.include_router(install.router)
