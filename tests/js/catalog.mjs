// Run before the unit tests (node --import): the modules speak from the one catalog, data/words.toml, as a
// page's do from the copy it carries. Python reads the TOML (Node has no reader of its own).
import {execFileSync} from "node:child_process";

import {useCatalog} from "../../matchstate/web/static/catalog.mjs";

const toml = new URL("../../matchstate/data/words.toml", import.meta.url);
const read = "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))";
useCatalog(JSON.parse(execFileSync(process.env.PYTHON || "python3", ["-c", read, toml.pathname], {encoding: "utf-8"})));
