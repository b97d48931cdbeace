"""A club's own conditions, the seam's proof: USPA Rule 36 with 30 seconds after "Play", and a Penalty 3
undefended unless the match says otherwise."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from .uspa import USPA_2026

CLUB = replace(USPA_2026, name="club", title="Club conditions: 30 seconds, Penalty 3 undefended",
               window=timedelta(seconds=30), penalty3_defended=False)
