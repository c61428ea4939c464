"""The local transformers back end on the tiny models: chat template, left-padded batches, n samples each."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm.backends import GenerationParams, make_backend


@pytest.mark.parametrize("fixture", ["tiny_dir", "tiny_moe_dir"])
def test_batches_of_prompts_give_n_completions_each(fixture: str, request: pytest.FixtureRequest) -> None:
    path: Path = request.getfixturevalue(fixture)
    backend = make_backend("transformers", str(path), batch_size=2)
    prompts = [[{"role": "user", "content": "Write the kernel of relu."}],
               [{"role": "system", "content": "You write AscendC."}, {"role": "user", "content": "Add two tensors."}],
               [{"role": "user", "content": "x"}]]
    results = backend.generate(prompts, GenerationParams(n=2, max_new_tokens=6, temperature=1.0, seed=3))
    assert [len(r) for r in results] == [2, 2, 2]
    assert all(c.tokens is not None and c.tokens <= 6 and c.finish_reason in ("stop", "length")
               for r in results for c in r)
    again = backend.generate(prompts, GenerationParams(n=2, max_new_tokens=6, temperature=1.0, seed=3))
    assert [[c.text for c in r] for r in again] == [[c.text for c in r] for r in results]  # a seed fixes them
    greedy = backend.generate(prompts[:1], GenerationParams(n=1, max_new_tokens=4, temperature=0.0))
    assert len(greedy[0]) == 1
    assert backend.describe() == {"backend": "transformers", "model": str(path), "device": "cpu"}
