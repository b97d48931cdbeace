// The console's provisional fold over the cases tests/test_fold_agrees.py writes (each a view of the match and
// the events after it), printed for that test to hold against the engine's own views. Not a test itself:
// `node --test` runs the *.test.mjs files.
import {readFileSync} from "node:fs";

import {fold} from "../../matchstate/web/static/fold.mjs";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rows = cases.map(({view, events}) => fold(view, events).rows
  .map(({sure, state, score, free_hit: freeHit, timed, play_at: playAt}) => ({sure, state, score,
    free_hit: freeHit, timed, play_at: playAt})));
process.stdout.write(JSON.stringify(rows));
