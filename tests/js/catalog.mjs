// What a page gives catalog.mjs, for the modules that speak its words under Node: the catalog
// (data/words.toml, read by Python's tomllib, as the server reads it) and storage for the language chosen.
// Imported first, before the module under test.
import {execFileSync} from "node:child_process";
import {fileURLToPath} from "node:url";

import {memoryStorage} from "./fakes.mjs";

const WORDS = fileURLToPath(new URL("../../matchstate/data/words.toml", import.meta.url));
const catalog = execFileSync("python3", ["-c",
  "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))", WORDS], {encoding: "utf-8"});

globalThis.matchstateCatalog = JSON.parse(catalog);  // as a page's catalog module sets it, before its modules
globalThis.localStorage ??= memoryStorage();
globalThis.document ??= {getElementById: () => null, documentElement: {}, cookie: ""};

/** Speak ``lang`` ("en", "es") from now on, as the toggle does. */
export function speak(lang) { localStorage.setItem("matchstate:lang", lang); }
