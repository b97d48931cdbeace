"""A page's modules in one file (web/bundle.py): run under Node, the bundle runs each module once, its imports
first, as the browser runs ES modules; it refuses, by module and line, the syntax it does not read."""

from __future__ import annotations

import json
import subprocess

import pytest
from test_fold_agrees import node

from matchstate.errors import BundleError, MatchstateError
from matchstate.web.assets import assets, entries
from matchstate.web.bundle import bundle

# Each module says when it runs in globalThis.ran; c.mjs is loaded only when asked.
MODULES = {
    "entry.mjs": 'import {seen as told} from "./a.mjs";\nimport "./b.mjs";\n'
                 "ran.push(`entry: ${told()}`);\n"
                 "// a comment that fills its line\n"
                 'const later = await import("./c.mjs");\nran.push(`later: ${later.C}`);\n',
    "a.mjs": 'import {B} from "./b.mjs";\n/** What a has seen. */\nexport function seen() {\n  return B;\n}\n'
             'ran.push("a");\n',
    "b.mjs": 'export const B = "b\'s";\nexport class Unused {}\nran.push("b");\n',
    "c.mjs": 'import {B} from "./b.mjs";\nexport const C = `c after ${B}`;\nran.push("c");\n',
}


def run(text: str) -> list[str]:
    """What a bundle's modules pushed to ``ran``, run as a module under Node."""
    script = f"globalThis.ran = [];\n{text}\nconsole.log(JSON.stringify(ran));\n"
    done = subprocess.run([node(), "--input-type=module", "-e", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ran: list[str] = json.loads(done.stdout)
    return ran


def test_each_module_runs_once_after_its_imports_and_a_dynamic_import_when_asked() -> None:
    assert run(bundle(MODULES, ["entry.mjs"], "A test")) == [
        "b", "a", "entry: b's", "c", "later: c after b's"]


def test_the_entries_run_in_their_order_and_share_the_modules_they_both_import() -> None:
    assert run(bundle(MODULES, ["b.mjs", "a.mjs", "entry.mjs"], "A test"))[:3] == ["b", "a", "entry: b's"]


def test_the_comments_that_fill_their_lines_are_left_out_but_not_from_a_template_literal() -> None:
    made = bundle(MODULES, ["entry.mjs"], "A test")
    assert "a comment that fills its line" not in made and "What a has seen" not in made
    spanning = {"entry.mjs": "ran.push(`one\n// two`);\n"}
    assert run(bundle(spanning, ["entry.mjs"], "A test")) == ["one\n// two"]


@pytest.mark.parametrize(("sources", "said"), [
    ({"entry.mjs": 'import a from "./a.mjs";\n', "a.mjs": ""}, 'entry.mjs, line 1: \'import a from "./a.mjs";\''),
    ({"entry.mjs": "let a = 1;\nexport let b = 2;\n"}, "entry.mjs, line 2: 'export let b = 2;'"),
    ({"entry.mjs": "const here = import.meta.url;\n"}, "entry.mjs, line 1: 'import.meta'"),
    ({"entry.mjs": "const x = import(name);\n"}, "entry.mjs, line 1: 'import('"),
    ({"entry.mjs": 'import {a} from "./gone.mjs";\n'}, "entry.mjs imports gone.mjs, which is no module"),
    ({"entry.mjs": 'import {a} from "./a.mjs";\n', "a.mjs": 'import {e} from "./entry.mjs";\nexport const a = 1;\n'},
     "entry.mjs imports a.mjs imports entry.mjs"),
    ({"entry.mjs": 'import {a} from "./a.mjs";\n', "a.mjs": "export const a = await 1;\n"},
     "a.mjs awaits at its top level and is imported"),
    ({"entry.mjs": "const $need = 1;\n"}, "entry.mjs uses the name $need"),
])
def test_what_it_does_not_read_is_refused_naming_the_module_and_line(sources: dict[str, str], said: str) -> None:
    with pytest.raises(BundleError) as refused:
        bundle(sources, ["entry.mjs"], "A test")
    assert said in str(refused.value) and isinstance(refused.value, MatchstateError)


def test_every_pages_script_is_made_from_the_packages_modules() -> None:
    made = assets().files
    texts = {name: made[name].plain.decode() for name in made if name.endswith(".mjs")}
    pages = entries({name: text for name, text in texts.items() if not name.startswith(("bundle-", "catalog-"))})
    assert {"console.mjs", "review.mjs", "records.mjs", "scoreboard.mjs", "page.mjs"} <= set(pages)
    for entry in pages:
        script = texts[f"bundle-{entry.removesuffix('.mjs')}.mjs"]
        checked = subprocess.run([node(), "--check", "--input-type=module"], input=script, capture_output=True,
                                 text=True)
        assert checked.returncode == 0, (entry, checked.stderr)
        assert f'\n$need("{entry}");' in script or f'\nawait $need("{entry}");' in script
