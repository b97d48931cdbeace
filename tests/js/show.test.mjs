import assert from "node:assert/strict";
import {describe, it} from "node:test";

import "./catalog.mjs";
import {time} from "../../matchstate/web/static/show.mjs";

describe("a moment in a list", () => {
  it("shows the tenth of its second, cut, not rounded", () => {
    assert.match(time("2026-11-14T17:55:00.999Z"), /\.9$/);
    assert.match(time("2026-11-14T17:55:00.050Z"), /\.0$/);
  });

  it("reads as the device's clock time, to the tenth of a second", () => {
    for (const iso of ["2026-11-14T17:55:00.123Z", "2026-11-14T00:05:09.999Z", "2026-11-14T12:00:00Z"]) {
      const d = new Date(iso);
      assert.equal(time(iso), `${d.toLocaleTimeString([], {hour12: false})}.${String(d.getMilliseconds()).padStart(3, "0")[0]}`);
    }
  });
});
