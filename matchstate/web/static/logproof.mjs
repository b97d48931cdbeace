// The league log as a page checks it (the Go checksum database client's model): the page keeps the latest
// checkpoint it has seen, per origin and log, and accepts a new one only with an RFC 6962 consistency proof that
// the new tree extends the kept one. SHA-256 is the browser's (crypto.subtle); the checkpoint's Ed25519 signature
// is checked where the browser's WebCrypto has Ed25519 (current Chromium and Node do), else reported unchecked.
// On a fork or a rollback it keeps the old checkpoint and hands a self-contained misbehaviour report:
// both signed checkpoints and the proof asked for, which `matchstate verify --report FILE` checks with no server.

const subtle = globalThis.crypto.subtle;
const DASH = "\u2014";

export const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
export const toBase64 = (bytes) => btoa(String.fromCharCode(...bytes));

async function sha256(...parts) {
  const whole = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) { whole.set(part, at); at += part.length; }
  return new Uint8Array(await subtle.digest("SHA-256", whole));
}

const equal = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const nodeHash = (left, right) => sha256(Uint8Array.of(1), left, right);
export const leafHash = (data) => sha256(Uint8Array.of(0), data);

function shiftWhileEven(first, second) {
  while (first && !(first & 1)) { first = Math.floor(first / 2); second = Math.floor(second / 2); }
  return [first, second];
}

/** Whether `proof` shows the leaf hash `leaf` at `index` in the tree of `size` leaves with `root` (RFC 9162 2.1.3.2). */
export async function verifyInclusion(index, size, leaf, proof, root) {
  if (!(index >= 0 && index < size) || [leaf, root, ...proof].some((step) => step.length !== 32)) return false;
  let fn = index, sn = size - 1, hashed = leaf;
  for (const step of proof) {
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      hashed = await nodeHash(step, hashed);
      if (!(fn & 1)) [fn, sn] = shiftWhileEven(fn, sn);
    } else {
      hashed = await nodeHash(hashed, step);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(hashed, root);
}

/** Whether `proof` shows the tree of `size1` leaves with `root1` a prefix of that of `size2` with `root2` (RFC 9162 2.1.4.2). */
export async function verifyConsistency(size1, size2, proof, root1, root2) {
  if (!(size1 > 0 && size1 <= size2)) return false;
  if (size1 === size2) return proof.length === 0 && equal(root1, root2);
  if (!proof.length || [root1, root2, ...proof].some((step) => step.length !== 32)) return false;
  const path = (size1 & (size1 - 1)) === 0 ? [root1, ...proof] : [...proof];
  let fn = size1 - 1, sn = size2 - 1;
  while (fn & 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
  let first = path[0], second = path[0];
  for (const step of path.slice(1)) {
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      first = await nodeHash(step, first);
      second = await nodeHash(step, second);
      if (!(fn & 1)) [fn, sn] = shiftWhileEven(fn, sn);
    } else {
      second = await nodeHash(second, step);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 && equal(first, root1) && equal(second, root2);
}

/** A signed checkpoint note read (c2sp.org/tlog-checkpoint): its text, origin, size, root and signature lines. */
export function readCheckpoint(note) {
  const cut = note.lastIndexOf("\n\n");
  if (cut < 0 || !note.endsWith("\n")) throw new Error("not a signed note");
  const text = note.slice(0, cut + 1);
  const [origin, size, root] = text.split("\n");
  if (!/^(0|[1-9][0-9]*)$/.test(size || "")) throw new Error("not a checkpoint: no tree size");
  const signatures = note.slice(cut + 2, -1).split("\n").map((line) => {
    const [dash, name, b64] = line.split(" ");
    if (dash !== DASH || !b64) throw new Error("not a signature line");
    const raw = fromBase64(b64);
    return {name, id: raw.slice(0, 4), signature: raw.slice(4)};
  });
  return {note, text, origin, size: Number(size), root: fromBase64(root), signatures};
}

/** Whether the log key `vkey` (`name+hexid+base64(0x01||key)`) signed the checkpoint; null where this browser has
 * no Ed25519 in WebCrypto (then only the proofs are checked). */
export async function signedBy(checkpoint, vkey) {
  const first = vkey.indexOf("+"), second = vkey.indexOf("+", first + 1);  // the key's base64 may hold a '+'
  const [name, id, material] = [vkey.slice(0, first), vkey.slice(first + 1, second), fromBase64(vkey.slice(second + 1))];
  const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  const line = checkpoint.signatures.find((s) => s.name === name && hex(s.id) === id);
  if (!line || material[0] !== 1) return false;
  let key;
  try {
    key = await subtle.importKey("raw", material.slice(1), {name: "Ed25519"}, false, ["verify"]);
  } catch {
    return null;
  }
  return subtle.verify({name: "Ed25519"}, key, line.signature, new TextEncoder().encode(checkpoint.text));
}

/**
 * The latest checkpoint a page has seen of one log, kept in storage; `consistency(from, to)` asks the server for
 * the proof (`GET /api/log/consistency`): its answer's `proof`, or null where the server refuses (it holds fewer
 * leaves than asked: it was rolled back).
 */
export class LogWatch {
  constructor(storage, place, consistency, vkey = null) {
    Object.assign(this, {storage, place, consistency, vkey});
  }

  name(origin) { return `matchstate.log:${this.place}:${origin}`; }

  kept(origin) { return this.storage.getItem(this.name(origin)); }

  /** Check a checkpoint the server gave: {status: "first"|"same"|"newer"|"older"|"fork"|"rollback", report?}. */
  async see(note) {
    const given = readCheckpoint(note);
    if (this.vkey && (await signedBy(given, this.vkey)) === false) {
      return this.#misbehaved("forged", given, null, null);
    }
    const keptNote = this.kept(given.origin);
    if (!keptNote) { this.#keep(given); return {status: "first"}; }
    const seen = readCheckpoint(keptNote);
    if (given.size === seen.size) {
      return equal(given.root, seen.root) ? {status: "same"} : this.#misbehaved("fork", given, seen, []);
    }
    const [older, newer] = given.size < seen.size ? [given, seen] : [seen, given];
    const proof = await this.consistency(older.size, newer.size);
    if (proof === null) return this.#misbehaved("rollback", given, seen, null);
    const steps = proof.map(fromBase64);
    if (!(await verifyConsistency(older.size, newer.size, steps, older.root, newer.root))) {
      return this.#misbehaved("fork", given, seen, proof);
    }
    if (newer === given) { this.#keep(given); return {status: "newer"}; }
    return {status: "older"};  // an honest older checkpoint (a slower server's): the kept one stays
  }

  #keep(checkpoint) { this.storage.setItem(this.name(checkpoint.origin), checkpoint.note); }

  #misbehaved(kind, given, seen, proof) {
    const report = {format: "matchstate-misbehaviour-report/1", kind, origin: given.origin, vkey: this.vkey,
      seen: seen ? seen.note : null, given: given.note,
      consistency: seen && proof ? {from: Math.min(seen.size, given.size), to: Math.max(seen.size, given.size), proof}
        : null};
    return {status: kind, report};
  }
}
