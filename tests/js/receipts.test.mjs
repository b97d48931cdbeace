// The console keeps every receipt the server signed for its events, and hands them over as JSON Lines.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {Receipts} from "../../matchstate/web/static/receipts.mjs";
import {memoryStorage} from "./fakes.mjs";

const receipt = (seq, match = "m1") => ({match, seq, hash: `h${seq}`, received_at: "2026-11-29T15:00:00+00:00",
  key: "0123456789abcdef", signature: `s${seq}`});

describe("receipts", () => {
  it("keeps each receipt once (a retried send's answer carries the same one), in storage", () => {
    const storage = memoryStorage();
    const kept = new Receipts(storage, "r");
    [2, 3, 3, 4].forEach((seq) => kept.add(receipt(seq)));
    kept.add(undefined);  // an answer from a server before receipts
    assert.deepEqual(new Receipts(storage, "r").all.map((r) => r.seq), [2, 3, 4]);
    assert.equal(kept.last.seq, 4);
  });

  it("writes JSON Lines, one receipt a line, as `matchstate verify --receipts` reads them", () => {
    const kept = new Receipts(memoryStorage(), "r");
    kept.add(receipt(2));
    kept.add(receipt(3));
    const lines = kept.jsonLines().split("\n");
    assert.equal(lines.pop(), "");
    assert.deepEqual(lines.map((line) => JSON.parse(line)), [receipt(2), receipt(3)]);
  });

  it("drops the oldest past its bound, never the newest", () => {
    const kept = new Receipts(memoryStorage(), "r", 3);
    for (let seq = 2; seq <= 7; seq++) kept.add(receipt(seq));
    assert.deepEqual(kept.all.map((r) => r.seq), [5, 6, 7]);
  });

  it("makes room from the oldest when storage is full", () => {
    const storage = memoryStorage();
    const setItem = storage.setItem;
    storage.setItem = (name, value) => {
      if (value.length > 1200) throw new DOMException("full", "QuotaExceededError");
      setItem(name, value);
    };
    const kept = new Receipts(storage, "r");
    for (let seq = 2; seq <= 20; seq++) kept.add(receipt(seq));
    const seqs = kept.all.map((r) => r.seq);
    assert.equal(seqs[seqs.length - 1], 20);
    assert.ok(seqs.length >= 2 && seqs.length < 19, seqs);
  });
});
