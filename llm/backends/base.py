"""What every generation back end takes and returns."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

Messages = list[dict[str, str]]


class BackendError(Exception):
    """A back end could not produce a completion for one prompt (a malformed reply, a refused request)."""


class EndpointUnavailable(BackendError):
    """The server cannot be reached at all: nothing more can be generated until it is back."""


@dataclass(frozen=True)
class GenerationParams:
    """Sampling parameters; `n` completions per prompt."""

    n: int = 1
    temperature: float = 0.8
    top_p: float = 0.95
    max_new_tokens: int = 4096
    seed: int | None = None
    stop: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["stop"] = list(self.stop)
        return data


@dataclass
class Completion:
    text: str
    finish_reason: str = ""
    tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def reasoning(self) -> str:
        return split_reasoning(self.text)[0]

    @property
    def answer(self) -> str:
        return split_reasoning(self.text)[1]


class Backend(Protocol):
    """Turns chat prompts into completions: `generate(prompts, params)[i]` holds `params.n` completions of
    prompt i. Raises EndpointUnavailable when it cannot work at all, BackendError for one bad prompt."""

    name: str

    def generate(self, prompts: Sequence[Messages], params: GenerationParams) -> list[list[Completion]]: ...

    def describe(self) -> dict[str, Any]: ...


_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.S)
# where an answer starts in each format the harness reads
_ANSWER_START = re.compile(r"^[ \t]*(?:<kernel_impl>|={3,}[ \t]*[\w./-]+[ \t]*={3,}|```(?:python|py|cpp|c\+\+)\b)",
                           re.M)


def split_reasoning(text: str) -> tuple[str, str]:
    """(reasoning, answer) of a completion: a leading `<think>...</think>` block, else the prose before the
    first answer marker (`<kernel_impl>`, `=== op_host/... ===`, a ```python or ```cpp fence)."""
    think = _THINK.match(text)
    if think:
        return think.group(1).strip(), text[think.end():]
    start = _ANSWER_START.search(text)
    if start is None:
        return "", text
    return text[:start.start()].strip(), text[start.start():]
