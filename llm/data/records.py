"""The dataset's records: chat messages for SFT, prompt/chosen/rejected for preference training, with the
same flat metadata columns on every record so that `datasets` infers one schema for each file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SOURCES = ("docs", "code", "mutants", "repairs")


def message(role: str, content: str) -> dict[str, str]:
    return {"role": role, "content": content}


def task_key(name: str) -> str:
    """The operator a task is about, the same for every suite's spelling of it (`LeakyRelu`, `leaky_relu`,
    `leaky_relu_custom`, `npukernelbench:LeakyRelu`): records of one operator never straddle two splits."""
    base = name.split(":")[-1]
    base = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).lower()
    base = re.sub(r"[^a-z0-9]+", "_", base).strip("_")
    return base.removesuffix("_custom")


@dataclass
class Record:
    """One example. `kind` is `sft` (messages) or `pair` (prompt, chosen, rejected); `group` is what the split
    keeps together (the operator for task-bound records, a topic for documentation)."""

    id: str
    source: str
    kind: str
    group: str
    messages: list[dict[str, str]] = field(default_factory=list)
    prompt: list[dict[str, str]] = field(default_factory=list)
    chosen: list[dict[str, str]] = field(default_factory=list)
    rejected: list[dict[str, str]] = field(default_factory=list)
    task: str = ""
    suite: str = ""
    category: str = ""
    level: int = 0
    operator: str = ""  # mutation operator, for error-derived records
    bug_kind: str = ""
    codes: list[str] = field(default_factory=list)  # rule codes of the diagnostics the record teaches
    tier: str = ""  # who flagged the bug: static, static-shapes, simulator, recorded (a real build or run)
    code: str = ""  # the kernel source the record is about, for near-duplicate clustering (not written)

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"record {self.id}: unknown source '{self.source}'")
        if self.kind not in ("sft", "pair"):
            raise ValueError(f"record {self.id}: unknown kind '{self.kind}'")

    def to_json(self) -> dict[str, Any]:
        common = {"id": self.id, "source": self.source, "group": self.group, "task": self.task, "suite": self.suite,
                  "category": self.category, "level": self.level, "operator": self.operator,
                  "bug_kind": self.bug_kind, "codes": list(self.codes), "tier": self.tier}
        if self.kind == "sft":
            return {**common, "messages": self.messages}
        return {**common, "prompt": self.prompt, "chosen": self.chosen, "rejected": self.rejected}

    def text(self) -> str:
        """Everything the record shows a model, for deduplication."""
        parts = self.messages if self.kind == "sft" else [*self.prompt, *self.chosen, *self.rejected]
        return "\n".join(f"{m['role']}: {m['content']}" for m in parts)
