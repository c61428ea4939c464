"""Generation back ends: a local transformers model and any OpenAI-compatible endpoint (vLLM, ...), and the
resumable JSONL sample store they write to.

    backend = make_backend("openai", url="http://127.0.0.1:8000/v1", model="qwen3-8b")
    backend = make_backend("transformers", model="path/to/model")
    generate_samples(backend, prompts, k=4, params=GenerationParams(temperature=0.8), store=SampleStore("s.jsonl"))
"""

from __future__ import annotations

from typing import Any

from llm.backends.base import (
    Backend,
    BackendError,
    Completion,
    EndpointUnavailable,
    GenerationParams,
    Messages,
    split_reasoning,
)
from llm.backends.samples import SampleStore, generate_samples, sample_key

__all__ = ["Backend", "BackendError", "Completion", "EndpointUnavailable", "GenerationParams", "Messages",
           "SampleStore", "generate_samples", "make_backend", "sample_key", "split_reasoning"]


def make_backend(kind: str, model: str, url: str | None = None, **options: Any) -> Backend:
    """`transformers` (model = a local path) or `openai` (url = the server's /v1 base, model = its model name)."""
    if kind == "transformers":
        from llm.backends.local import LocalModel

        return LocalModel(model, **options)
    if kind == "openai":
        from llm.backends.openai_http import OpenAICompatible

        if not url:
            raise ValueError("the openai back end needs the server's URL (--url http://host:port/v1)")
        return OpenAICompatible(url, model, **options)
    raise ValueError(f"unknown back end '{kind}' (transformers, openai)")
