"""The prompt builders, the dataset builder, the mutation engine and the CLI import without the training stack:
`ascendc-check` and `ascendir data build` stay light."""

from __future__ import annotations

import subprocess
import sys


def test_light_modules_do_not_import_torch() -> None:
    code = ("import sys\n"
            "import passes.mutate, passes.mutate.judge, llm.prompts, llm.backends, llm.loop\n"
            "import llm.data.build, llm.data.docs, llm.data.code, llm.data.mutants, llm.data.repairs, llm.data.verify\n"
            "import cli.main\n"
            "print(sorted(m for m in ('torch', 'transformers', 'trl', 'peft', 'datasets', 'httpx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
