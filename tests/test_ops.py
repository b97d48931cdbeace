"""What a monitor asks: /healthz while the process runs, /readyz 503 naming what is wrong (the database gone,
the schema behind, the secret missing), HEAD wherever GET answers."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from matchstate.store import Store
from matchstate.web import create_app


def _client(tmp_path: Path) -> tuple[TestClient, Store]:
    store = Store(f"sqlite:///{tmp_path / 'ops.db'}")
    store.upgrade()
    return TestClient(create_app(store)), store


def test_ready_with_database_schema_and_secret_and_not_without_each(tmp_path: Path) -> None:
    client, store = _client(tmp_path)
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "problems": []}

    store.secrets.path.rename(tmp_path / "elsewhere")
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["problems"] == [f"secret: missing at {store.secrets.path}"]
    (tmp_path / "elsewhere").rename(store.secrets.path)

    engine = create_engine(f"sqlite:///{tmp_path / 'ops.db'}")
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '0005'")
    engine.dispose()
    answer = client.get("/readyz")
    assert answer.status_code == 503 and "schema at 0005" in answer.json()["problems"][0]

    store.close()
    (tmp_path / "ops.db").unlink()
    (tmp_path / "ops.db").mkdir()  # where the file was, nothing a database can open
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json()["problems"][0].startswith("database: cannot be reached")
    assert client.get("/healthz").status_code == 200


def test_head_is_answered_wherever_get_is_with_its_headers_and_no_body(tmp_path: Path) -> None:
    client, _ = _client(tmp_path)
    for path in ("/", "/api/event-types", "/healthz", "/manifest.webmanifest", "/static/style.css", "/setup/tablet"):
        got, head = client.get(path), client.head(path)
        assert (head.status_code, head.content) == (got.status_code, b""), path
        assert head.headers["content-type"] == got.headers["content-type"]
    assert client.head("/api/matches/none").status_code == 404


def test_the_json_access_log_has_time_latency_status_request_id_method_and_path(tmp_path: Path) -> None:
    import json
    import urllib.request

    from matchstate.web.process import ServerProcess

    url = f"sqlite:///{tmp_path / 'logged.db'}"
    Store(url).upgrade()
    log = tmp_path / "server.log"
    with ServerProcess(url, log=log, options=["--log-format", "json"]) as server:
        request = urllib.request.Request(f"{server.base}/readyz?key=secret-key", headers={"X-Request-ID": "tablet-7"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.headers["X-Request-ID"] == "tablet-7"
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    [ready] = [line for line in lines if line["path"].startswith("/readyz")]
    assert ready["request_id"] == "tablet-7" and ready["status"] == 200 and ready["method"] == "GET"
    assert "secret-key" not in ready["path"] and ready["latency_ms"] >= 0 and ready["time"].endswith("Z")


def test_metrics_parse_as_prometheus_text_and_count_appends_refusals_and_latency(tmp_path: Path) -> None:
    from prometheus_client.parser import text_string_to_metric_families

    from matchstate.store import hash_key

    client, store = _client(tmp_path)
    store.set_league_key(hash_key("league"))
    start = {"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m-1", "teams": ["Blue", "Red"]}
    keys = client.post("/api/matches", json=start, headers={"Authorization": "Bearer league"}).json()
    scorer = {"Authorization": f"Bearer {keys['scorer_key']}"}
    goal = {"type": "goal", "at": "2026-11-29T15:01:00Z", "team": "Blue"}
    assert client.post("/api/matches/m-1/events", json={"event": {**goal, "type": "chukker.start", "chukker": 1}},
                       headers=scorer).status_code == 201
    assert client.post("/api/matches/m-1/events", json={"event": goal, "expected_seq": 1},
                       headers=scorer).status_code == 409
    assert client.get("/no-such-page").status_code == 404
    answer = client.get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain; version=")
    families = {family.name: family for family in text_string_to_metric_families(answer.text)}
    samples = {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
               for family in families.values() for sample in family.samples}
    assert samples[("matchstate_appends_total", ())] == 1
    assert samples[("matchstate_append_refusals_total", (("status", "409"),))] == 1
    append = (("kind", "append"), ("method", "POST"), ("route", "/api/matches/{code}/events"))
    assert samples[("matchstate_http_request_seconds_count", append)] == 2  # by route template, not by match
    assert families["matchstate_http_request_seconds"].type == "histogram"
    assert samples[("matchstate_http_request_seconds_count", (("kind", "page"), ("method", "GET"),
                                                              ("route", "unrouted")))] == 1  # the 404 below
    # Two appends written (the match.start and the chukker.start), each alone in its group: two groups of 1.
    assert families["matchstate_commit_group_appends"].type == "histogram"
    assert samples[("matchstate_commit_group_appends_bucket", (("le", "1.0"),))] == 2
    assert samples[("matchstate_commit_group_appends_count", ())] == 2
    assert samples[("matchstate_commit_group_appends_sum", ())] == 2
    assert samples[("matchstate_live_streams", ())] == 0
    assert samples[("matchstate_engine_cache_matches", ())] >= 1


def test_metrics_come_gzipped_to_a_scraper_that_takes_gzip_in_prometheus_content_type(tmp_path: Path) -> None:
    """Answered outside the compression, the metrics went plain to every scraper (7 kB here, more with each route)."""
    import gzip

    from prometheus_client.exposition import CONTENT_TYPE_LATEST
    from prometheus_client.parser import text_string_to_metric_families

    from matchstate.web.compression import MINIMUM_BYTES

    client, _ = _client(tmp_path)
    for path in ("/healthz", "/readyz", "/no-such-page"):
        client.get(path)
    answers = {}
    for accepted in ("identity", "gzip"):
        with client.stream("GET", "/metrics", headers={"Accept-Encoding": accepted}) as answer:
            answers[accepted] = answer.headers, b"".join(answer.iter_raw())
    (plain_headers, plain), (gzip_headers, gzipped) = answers["identity"], answers["gzip"]
    assert len(plain) >= MINIMUM_BYTES and "content-encoding" not in plain_headers
    assert gzip_headers["content-encoding"] == "gzip" and gzip_headers.get_list("vary") == ["Accept-Encoding"]
    assert plain_headers["content-type"] == gzip_headers["content-type"] == CONTENT_TYPE_LATEST
    text = gzip.decompress(gzipped).decode()
    assert len(gzipped) < len(text) / 3
    assert "matchstate_http_requests" in {family.name for family in text_string_to_metric_families(text)}


def test_sigterm_with_20_open_streams_ends_them_without_a_traceback(tmp_path: Path) -> None:
    import json
    import socket
    import urllib.request

    from matchstate.store import hash_key
    from matchstate.web.process import ServerProcess

    url = f"sqlite:///{tmp_path / 'streams.db'}"
    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key("league"))
    store.close()
    log = tmp_path / "server.log"
    server = ServerProcess(url, log=log, options=["--streams-per-client", "32"])
    server.start(timeout=120)
    try:
        start = {"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m-1", "teams": ["Blue", "Red"]}
        urllib.request.urlopen(urllib.request.Request(
            f"{server.base}/api/matches", json.dumps(start).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer league"}), timeout=30).read()
        streams = [socket.create_connection(("127.0.0.1", server.port), timeout=30) for _ in range(20)]
        for stream in streams:
            stream.sendall(b"GET /api/matches/m-1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for stream in streams:
            assert stream.recv(12) == b"HTTP/1.1 200"
    finally:
        server.stop()
    text = log.read_text()
    assert text.count('"GET /api/matches/m-1/stream HTTP/1.1" 200') == 20
    assert "Traceback" not in text and "ERROR" not in text
    assert "Finished server process" in text
