"""A local transformers model: a path to weights (a Hub-style directory), its chat template, sampling, batches.

Prompts go through the tokenizer's chat template with the generation prompt added, are padded on the left and
generated in batches of `batch_size` prompts, `n` sequences each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llm.backends.base import BackendError, Completion, GenerationParams, Messages


class LocalModel:
    name = "transformers"

    def __init__(self, path: str, device: str | None = None, dtype: str = "auto", batch_size: int = 4,
                 model: Any = None, tokenizer: Any = None) -> None:
        """Loads the model and tokenizer from `path` (or takes them ready-made, for a model in memory)."""
        import os

        os.environ.setdefault("OMP_NUM_THREADS", "1")
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.path = path
        self.batch_size = max(1, batch_size)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = tokenizer if tokenizer is not None else AutoTokenizer.from_pretrained(path)
        if self.tokenizer.chat_template is None:
            raise BackendError(f"{path}: the tokenizer has no chat template")
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        torch_dtype = getattr(torch, dtype) if dtype != "auto" else "auto"
        self.model = model if model is not None else AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype)
        self.model.to(self.device)
        self.model.eval()

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "model": self.path, "device": self.device}

    def generate(self, prompts: Sequence[Messages], params: GenerationParams) -> list[list[Completion]]:
        import torch

        if params.seed is not None:
            torch.manual_seed(params.seed)
        out: list[list[Completion]] = []
        for start in range(0, len(prompts), self.batch_size):
            out += self._batch(prompts[start:start + self.batch_size], params)
        return out

    def _batch(self, prompts: Sequence[Messages], params: GenerationParams) -> list[list[Completion]]:
        import torch

        texts = [self.tokenizer.apply_chat_template(list(p), tokenize=False, add_generation_prompt=True)
                 for p in prompts]
        enc = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(self.device)
        sampling = params.temperature > 0
        kwargs: dict[str, Any] = {"max_new_tokens": params.max_new_tokens, "num_return_sequences": params.n,
                                  "do_sample": sampling, "pad_token_id": self.tokenizer.pad_token_id}
        if sampling:
            kwargs.update(temperature=params.temperature, top_p=params.top_p)
        if params.stop:
            kwargs.update(stop_strings=list(params.stop), tokenizer=self.tokenizer)
        with torch.no_grad():
            generated = self.model.generate(**enc, **kwargs)
        new = generated[:, enc["input_ids"].shape[1]:]
        eos = self.tokenizer.eos_token_id
        results: list[list[Completion]] = []
        for i in range(len(prompts)):
            row = []
            for j in range(params.n):
                ids = new[i * params.n + j].tolist()
                ended = eos in ids
                ids = ids[:ids.index(eos)] if ended else ids
                while ids and ids[-1] == self.tokenizer.pad_token_id:
                    ids.pop()
                row.append(Completion(self.tokenizer.decode(ids, skip_special_tokens=True),
                                      "stop" if ended else "length", len(ids)))
            results.append(row)
        return results
