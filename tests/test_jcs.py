"""RFC 8785 canonical JSON, checked against the RFC's own examples, and the chain's version 2 built on it."""

import json
import struct
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from conftest import match_log
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from matchstate import jcs
from matchstate.errors import InvalidEvent
from matchstate.store import Store
from matchstate.store.chain import canonical, instant, sealed

# RFC 8785 appendix B: IEEE 754 doubles (as hex) and how ECMAScript (and so JCS) writes them.
NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize(("bits", "written"), NUMBERS)
def test_numbers_are_written_as_ecmascript_writes_them(bits: str, written: str) -> None:
    assert jcs.number(struct.unpack(">d", bytes.fromhex(bits))[0]) == written


@pytest.mark.parametrize("bits", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_nan_and_infinity_have_no_canonical_form(bits: str) -> None:
    with pytest.raises(jcs.NotCanonical):
        jcs.canonical([struct.unpack(">d", bytes.fromhex(bits))[0]])


def test_the_rfcs_example_object() -> None:
    """RFC 8785 section 3.2.2's example, read from its JSON text, written as its section 3.2.3 shows."""
    received = (r'{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
                r' "string": "\u20ac$\u000F\u000aA' + "'" + r'\u0042\u0022\u005c\\\"\/",'
                r' "literals": [null, true, false]}')
    assert jcs.canonical(json.loads(received)) == (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}').encode()


def test_keys_sort_by_utf16_code_units() -> None:
    """RFC 8785 section 3.2.3's sorting example: the emoji (a surrogate pair) sorts before U+FB33."""
    received = (r'{"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",'
                r' "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control",'
                r' "\u00f6": "Latin Small Letter O With Diaeresis"}')
    written = jcs.canonical(json.loads(received)).decode()
    assert [json.loads(f"[{part.split(':')[0]}]")[0] for part in written[1:-1].split(",")] == [
        "\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]


@pytest.mark.parametrize("value", [2**53, -(2**53), "\ud800", {1: "a"}, b"bytes"])
def test_what_jcs_cannot_write_alike_everywhere_is_refused(value: Any) -> None:
    with pytest.raises(jcs.NotCanonical):
        jcs.canonical({"x": value})


def test_whole_numbers_up_to_two_to_the_53_are_exact() -> None:
    written = b"[9007199254740991,-9007199254740991,0,true,null]"
    assert jcs.canonical([2**53 - 1, -(2**53 - 1), 0, True, None]) == written


KEYS = st.one_of(st.text(max_size=4), st.sampled_from(["\ufb33", "\U0001f600", "\u20ac", "\r"]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                    st.text(), st.sampled_from(["\ud800", "a\udfffb", "\x00\x1f\x7f\u2028"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


def _written_or_refused(write: Any, value: Any) -> bytes | str:
    try:
        written: bytes = write(value)
    except jcs.NotCanonical as refused:
        return refused.kind
    return written


@given(VALUES)
def test_orjsons_quick_form_is_taken_only_where_it_is_the_rfcs(value: Any) -> None:
    """Events and leaves take orjson's sorted form where it is RFC 8785's: for any JSON value, what
    canonical writes (or refuses) is what the module's own writer writes (or refuses)."""
    assert _written_or_refused(jcs.canonical, value) == _written_or_refused(jcs._written, value)


@given(VALUES)
def test_the_seals_and_version_1s_json_is_pythons_sorted_key_json_for_any_value(value: Any) -> None:
    """Seals and the chain's version 1 are Python's sorted-key JSON: orjson writes them where it writes alike."""
    try:
        expected = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        with pytest.raises(InvalidEvent):
            canonical(value)
        return
    assert canonical(value) == expected


@given(st.datetimes(min_value=datetime(1000, 1, 1), timezones=st.sampled_from([UTC, timezone(timedelta(hours=-3))])))
def test_an_instant_is_written_as_the_chain_has_always_written_it(moment: datetime) -> None:
    """What an event's hash covers of its received_at: UTC to the microsecond, as every stored chain has it."""
    assert instant(moment) == moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# Three events that the chain's version 1 (Python's sorted-key JSON) writes otherwise than RFC 8785: a float
# written with ".0", one with an exponent Python pads, and team names that sort otherwise by UTF-16.
CRAFTED = [
    ({"type": "note", "handicap_goals": 1.0}, b'"handicap_goals":1,'),
    ({"type": "note", "yards": 1.5e-07}, b'"yards":1.5e-7}'),
    ({"type": "note", "handicap_goals": {"Los \ufb01": 1, "Los \U0001f40e": 2}},
     '"handicap_goals":{"Los \U0001f40e":2,"Los \ufb01":1}'.encode()),
]


@pytest.mark.parametrize(("event", "jcs_part"), CRAFTED)
def test_three_crafted_events_hash_differently_under_version_1(event: dict[str, Any], jcs_part: bytes) -> None:
    from datetime import UTC, datetime

    at = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    version_1, version_2 = sealed(event, "scorer", at, "0.1.0", 1), sealed(event, "scorer", at, "0.1.0", 2)
    assert version_1 != version_2
    assert version_1 == canonical({"engine_version": "0.1.0", "event": event,
                                   "received_at": "2026-12-04T20:00:00.000000Z", "role": "scorer"})
    assert jcs_part in version_2 and jcs_part not in version_1


def test_a_whole_number_beyond_two_to_the_53_is_refused_in_a_new_event(store: Store) -> None:
    log = match_log("m-1", 2)
    store.create_match(log[0], role="official")
    with pytest.raises(InvalidEvent, match="2\\*\\*53"):
        store.append("m-1", {**log[1], "chukker": 2**53 + 1}, role="scorer")


def test_rows_keep_verifying_under_their_own_chain_version(store: Store) -> None:
    """New rows are written as version 2; rows of version 1 (as written before) verify under version 1, and a
    row whose hash needs version 2 does not verify when its version is set back to 1."""
    log = match_log("m-1", 5)
    store.create_match({**log[0], "note": {"Los \ufb01": 1.0, "Los \U0001f40e": 1.5e-07}}, role="official")
    for event in log[1:]:
        store.append("m-1", event, role="scorer")
    assert store.verify() == []
    with store.engine.begin() as connection:
        assert set(connection.execute(text("SELECT chain_version FROM events")).scalars()) == {2}
        # the rallies are written alike by both versions: as a store from before version 2 holds them
        connection.execute(text("UPDATE events SET chain_version = 1 WHERE seq > 1"))
    assert store.verify() == []
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE events SET chain_version = 1 WHERE seq = 1"))
    problems = store.verify()
    assert [(problem.seq, "the row was changed" in problem.what) for problem in problems][:1] == [(1, True)]
