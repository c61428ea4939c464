"""Shared fixtures of the llm tests: one tiny Qwen3 model (and its MoE form) per session, built from a config
with a tokenizer trained here on the bundled kernels; nothing is downloaded. OMP_NUM_THREADS=1 is set by the
top-level conftest before torch is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from llm.train.tiny import TinySpec, build, default_texts, save


@pytest.fixture(scope="session")
def tokenizer_texts() -> list[str]:
    return default_texts()


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory, tokenizer_texts: list[str]) -> Path:
    """A saved tiny dense Qwen3 (model + tokenizer + chat template), loadable with from_pretrained."""
    model, tokenizer = build(TinySpec(), tokenizer_texts, seed=0)
    return save(model, tokenizer, tmp_path_factory.mktemp("tiny-qwen3"))


@pytest.fixture(scope="session")
def tiny_moe_dir(tmp_path_factory: pytest.TempPathFactory, tokenizer_texts: list[str]) -> Path:
    model, tokenizer = build(TinySpec(arch="qwen3_moe"), tokenizer_texts, seed=0)
    return save(model, tokenizer, tmp_path_factory.mktemp("tiny-qwen3-moe"))


def load(path: Path) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)
