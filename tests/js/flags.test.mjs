// The flags an event may carry, in words from the one catalog: in the language asked for, whatever the toggle says
// (the review shows a flag in both languages side by side), and a flag this page does not know by its code.
import assert from "node:assert/strict";
import {describe, it} from "node:test";

import {speak} from "./catalog.mjs";
import {flagLabel, flagMeaning} from "../../matchstate/web/static/flags.mjs";

describe("a flag", () => {
  it("means what the catalog says, in the language asked for", () => {
    speak("es");
    assert.equal(flagMeaning("after-horn", "en"), "After the horn: the chukker's time had already run out");
    assert.equal(flagMeaning("after-horn", "es"), "Después de la bocina: el tiempo del chukker ya se había cumplido");
    assert.deepEqual([flagLabel("clock-stopped", "en"), flagLabel("chukker-order", "es")],
      ["clock stopped", "orden de chukkers"]);
  });

  it("unknown to this page is shown by its code", () => {
    assert.deepEqual([flagMeaning("late-sub", "es"), flagLabel("late-sub", "en")], ["late-sub", "late-sub"]);
  });
});
