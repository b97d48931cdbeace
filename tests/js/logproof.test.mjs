// The page's league log checker against the Python implementation: transparency-dev/merkle's vectors (every
// mutation class, as tests/test_tlog.py runs them), and checkpoints, consistency proofs and a fork that
// matchstate.tlog made (tests/data/log-watch.json).
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {describe, it} from "node:test";

import {LogWatch, fromBase64, readCheckpoint, signedBy, verifyConsistency, verifyInclusion}
  from "../../matchstate/web/static/logproof.mjs";
import {memoryStorage} from "./fakes.mjs";

const data = (name) => JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), "utf8"));
const vectors = data("merkle-vectors.json");
const made = data("log-watch.json");
const b64 = (text) => (text ? fromBase64(text) : new Uint8Array());
const steps = (proof) => (proof || []).map(fromBase64);

describe("RFC 6962 proofs, as transparency-dev/merkle's vectors have them", () => {
  it("agrees on every inclusion vector", async () => {
    for (const v of vectors.inclusion) {
      const holds = await verifyInclusion(v.leafIdx, v.treeSize, b64(v.leafHash), steps(v.proof), b64(v.root));
      assert.equal(holds, !v.wantErr, `${v.file}: ${v.desc}`);
    }
  });

  it("agrees on every consistency vector", async () => {
    for (const v of vectors.consistency) {
      const holds = await verifyConsistency(v.size1, v.size2, steps(v.proof), b64(v.root1), b64(v.root2));
      assert.equal(holds, !v.wantErr, `${v.file}: ${v.desc}`);
    }
  });
});

describe("checkpoints signed by matchstate.tlog", () => {
  it("reads them and checks their Ed25519 signature with the log's vkey", async () => {
    const checkpoint = readCheckpoint(made.checkpoints["7"]);
    assert.equal(checkpoint.origin, "matchstate.league/test");
    assert.equal(checkpoint.size, 7);
    assert.equal(await signedBy(checkpoint, made.vkey), true);
    assert.equal(await signedBy(checkpoint, made.other_vkey), false);
    const altered = readCheckpoint(made.checkpoints["7"].replace("\n7\n", "\n8\n"));
    assert.equal(await signedBy(altered, made.vkey), false);
  });
});

const server = (proofs) => async (from, to) => proofs[`${from}-${to}`] ?? null;

describe("a page keeps the latest checkpoint and takes a newer one only with a consistency proof", () => {
  it("takes the first, then each that extends it; an older honest one leaves it kept", async () => {
    const storage = memoryStorage();
    const watch = new LogWatch(storage, "http://127.0.0.1", server(made.consistency), made.vkey);
    assert.equal((await watch.see(made.checkpoints["3"])).status, "first");
    assert.equal((await watch.see(made.checkpoints["3"])).status, "same");
    assert.equal((await watch.see(made.checkpoints["13"])).status, "newer");
    assert.equal((await watch.see(made.checkpoints["7"])).status, "older");
    assert.equal(readCheckpoint(watch.kept("matchstate.league/test")).size, 13);
    assert.equal((await new LogWatch(storage, "http://127.0.0.1", server(made.consistency)).see(
      made.checkpoints["20"])).status, "newer");  // kept across page loads, in storage
  });

  it("names a fork (a tree that does not extend the kept one) and a rollback, with a report of both", async () => {
    const watch = new LogWatch(memoryStorage(), "http://127.0.0.1", server(made.forked_consistency), made.vkey);
    await watch.see(made.checkpoints["7"]);
    const fork = await watch.see(made.forked["13"]);
    assert.equal(fork.status, "fork");
    assert.deepEqual([fork.report.seen, fork.report.given], [made.checkpoints["7"], made.forked["13"]]);
    assert.deepEqual(fork.report.consistency, {from: 7, to: 13, proof: made.forked_consistency["7-13"]});
    assert.equal(readCheckpoint(watch.kept("matchstate.league/test")).size, 7);  // the old one stays
    assert.equal((await watch.see(made.forked["7"])).status, "fork");  // the same size, another root
    const rolled = new LogWatch(memoryStorage(), "http://127.0.0.1", server({}), made.vkey);
    await rolled.see(made.checkpoints["13"]);
    const rollback = await rolled.see(made.checkpoints["7"]);  // the server no longer holds 13 leaves
    assert.equal(rollback.status, "rollback");
    assert.equal(rollback.report.seen, made.checkpoints["13"]);
  });

  it("refuses a checkpoint the log's key did not sign", async () => {
    const watch = new LogWatch(memoryStorage(), "http://127.0.0.1", server(made.consistency), made.vkey);
    const forged = await watch.see(made.checkpoints["7"].replace("\n7\n", "\n8\n"));
    assert.equal(forged.status, "forged");
  });
});
