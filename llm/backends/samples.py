"""Samples on disk: one JSON line per completion, appended as they arrive, so an interrupted run resumes.

A record holds the prompt, the reasoning and the answer split apart, the raw text, the back end and the
parameters. Its key is (task, case, style, sample index, prompt digest): a run resumes by skipping every key
already in the file with no error; records with an error are generated again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from llm.backends.base import Backend, BackendError, Completion, EndpointUnavailable, GenerationParams
from llm.prompts import Prompt


def prompt_digest(messages: Sequence[dict[str, str]]) -> str:
    return hashlib.sha1(json.dumps(list(messages), sort_keys=True).encode()).hexdigest()[:12]


def sample_key(prompt: Prompt, index: int) -> str:
    return f"{prompt.suite}:{prompt.task}@{prompt.case}/{prompt.style}#{index}:{prompt_digest(prompt.messages)}"


class SampleStore:
    """The JSONL file of a generation run."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def records(self) -> Iterator[dict[str, Any]]:
        """Every readable record (a line cut short by a crash is skipped)."""
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    continue

    def done(self) -> set[str]:
        return {r["key"] for r in self.records() if not r.get("error")}

    def latest(self) -> dict[str, dict[str, Any]]:
        """The last record of each key (a successful one wins over earlier errors)."""
        out: dict[str, dict[str, Any]] = {}
        for r in self.records():
            if not r.get("error") or r["key"] not in out or out[r["key"]].get("error"):
                out[r["key"]] = r
        return out

    def append(self, records: Iterable[dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
            fh.flush()


def _record(prompt: Prompt, index: int, completion: Completion | None, backend: Backend,
            params: GenerationParams, error: str = "") -> dict[str, Any]:
    text = completion.text if completion is not None else ""
    return {"key": sample_key(prompt, index), "task": prompt.task, "suite": prompt.suite, "case": prompt.case,
            "style": prompt.style, "form": prompt.form, "sample": index, "prompt": prompt.messages,
            "reasoning": completion.reasoning if completion else "", "answer": completion.answer if completion else "",
            "text": text, "finish_reason": completion.finish_reason if completion else "",
            "tokens": completion.tokens if completion else None, "backend": backend.describe(),
            "params": params.to_json(), "error": error}


def _one(backend: Backend, prompt: Prompt, params: GenerationParams) -> list[Completion] | str:
    """The completions of one prompt, or the back end's error message for it."""
    try:
        return backend.generate([prompt.messages], params)[0]
    except EndpointUnavailable:
        raise
    except BackendError as exc:
        return str(exc)


def generate_samples(backend: Backend, prompts: Sequence[Prompt], k: int, params: GenerationParams,
                     store: SampleStore, batch: int = 8) -> dict[str, int]:
    """`k` samples of every prompt into `store`, skipping those already there. A prompt the back end fails on
    is recorded with its error and retried by the next run; EndpointUnavailable stops the run (what finished
    is kept). Returns counts: generated, skipped, failed."""
    done = store.done()
    todo = [(p, [i for i in range(k) if sample_key(p, i) not in done]) for p in prompts]
    todo = [(p, idx) for p, idx in todo if idx]
    counts = {"generated": 0, "skipped": sum(k for _ in prompts) - sum(len(i) for _, i in todo), "failed": 0}
    for start in range(0, len(todo), batch):
        chunk = todo[start:start + batch]
        # one request per prompt asks for as many samples as that prompt still lacks (the largest gap of the chunk)
        need = max(len(idx) for _, idx in chunk)
        sub = GenerationParams(need, params.temperature, params.top_p, params.max_new_tokens, params.seed, params.stop)
        results: list[list[Completion] | str]
        try:
            results = list(backend.generate([p.messages for p, _ in chunk], sub))
        except EndpointUnavailable:
            raise
        except BackendError as exc:
            # one by one, so that one bad prompt does not sink the others
            results = [_one(backend, p, sub) for p, _ in chunk] if len(chunk) > 1 else [str(exc)]
        records = []
        for (prompt, indices), got in zip(chunk, results):
            for slot, index in enumerate(indices):
                if isinstance(got, str):
                    records.append(_record(prompt, index, None, backend, params, got))
                    counts["failed"] += 1
                else:
                    records.append(_record(prompt, index, got[slot], backend, params))
                    counts["generated"] += 1
        store.append(records)
    return counts
