"""A C2SP transparency log witness (c2sp.org/tlog-witness), run by ``matchstate witness``: it keeps, per log it
follows, the latest checkpoint it cosigned, and cosigns a new one only with a proof that it extends that one.

- :mod:`.state`: the latest cosigned checkpoint of each log, in the witness's own SQLite file, checked and
  written in one transaction before the answer goes;
- :mod:`.witness`: the ``add-checkpoint`` request's checks and their refusals;
- :mod:`.app`: the HTTP endpoint;
- :mod:`.command`: the command line.
"""
