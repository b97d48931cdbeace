"""The README's Python examples run as they are written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_the_readmes_python_examples_give_what_they_show() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), re.S)
    assert blocks and all(">>>" in block for block in blocks)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for number, block in enumerate(blocks, 1):
        runner.run(parser.get_doctest(block, {}, f"README block {number}", str(README), 0))
    assert runner.summarize(verbose=False).failed == 0
