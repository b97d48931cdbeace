"""The live service: a JSON API, a scorer's console, an officials' review and the league's records.

``create_app(store)`` builds the ASGI app; ``matchstate serve`` runs it on uvicorn.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
