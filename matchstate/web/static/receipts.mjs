// The receipts the server signed for this device's events (each acknowledged append's `receipt`), kept
// in the browser's storage per match, so a scorer holds proof of what was recorded even against someone
// who later rewrites the database: `matchstate verify --receipts FILE` checks them. Bounded: past
// ``most`` (or when storage is full) the oldest go first, never the newest.

export const MOST = 5000;

export class Receipts {
  /**
   * @param {{getItem(name: string): string|null, setItem(name: string, value: string): void}} storage
   * @param {string} name  the storage name (one per match)
   * @param {number} [most]
   */
  constructor(storage, name, most = MOST) {
    Object.assign(this, {storage, name, most});
  }

  /** Every receipt kept, oldest first. */
  get all() { return JSON.parse(this.storage.getItem(this.name) || "[]"); }

  get last() {
    const all = this.all;
    return all.length ? all[all.length - 1] : null;
  }

  /** Keep a receipt; one the server gave again (the answer to a retried send) is kept once. */
  add(receipt) {
    if (!receipt) return;
    const all = this.all;
    if (all.some((kept) => kept.seq === receipt.seq && kept.hash === receipt.hash && kept.match === receipt.match)) return;
    all.push(receipt);
    let kept = all.slice(-this.most);
    for (;;) {
      try {
        this.storage.setItem(this.name, JSON.stringify(kept));
        return;
      } catch (err) {  // storage is full: make room from the oldest, down to the newest alone
        if (kept.length <= 1) throw err;
        kept = kept.slice(Math.ceil(kept.length / 2));
      }
    }
  }

  /** The receipts as JSON Lines, one a line: what `matchstate verify --receipts FILE` reads. */
  jsonLines() {
    return this.all.map((receipt) => JSON.stringify(receipt) + "\n").join("");
  }
}
