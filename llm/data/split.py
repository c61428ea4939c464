"""Deduplication and the train/test split.

Records are split by group (the operator a task is about, whatever suite names it), so that no task is in both
splits. Groups whose kernels are near-duplicates (Jaccard similarity of token 8-grams at or above a threshold:
reduce_sum and reduce_mean, equal and less) are joined in a networkx graph, and a connected component goes to
one split as a whole: a test task never has a near-copy in training. Documentation records are reference
knowledge, not tasks, and stay in training.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from llm.data.records import Record

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TOKEN = re.compile(r"\w+|[^\s\w]")


def normalized(text: str) -> str:
    return " ".join(text.split())


def deduplicate(records: Sequence[Record]) -> tuple[list[Record], int]:
    """The records without exact duplicates (same kind and same text up to whitespace), first kept."""
    seen: set[str] = set()
    kept = []
    for r in records:
        key = hashlib.sha1(f"{r.kind}\n{normalized(r.text())}".encode()).hexdigest()
        if key in seen:
            continue
        seen.add(key)
        kept.append(r)
    return kept, len(records) - len(kept)


def shingles(code: str, k: int = 8) -> frozenset[int]:
    tokens = _TOKEN.findall(_COMMENTS.sub("", code))
    return frozenset(hash(tuple(tokens[i:i + k])) for i in range(max(1, len(tokens) - k + 1)))


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


@dataclass
class Split:
    assignment: dict[str, str]  # group -> "train" | "test"
    components: list[list[str]]  # the near-duplicate components of task groups (more than one group)
    edges: list[tuple[str, str, float]]


def split_groups(records: Sequence[Record], test_share: float = 0.15, threshold: float = 0.9, seed: int = 0,
                 per_group_codes: int = 3) -> Split:
    """Assigns every group to a split; test takes whole components, picked in a seeded order, until it holds
    about `test_share` of the task records."""
    import networkx as nx

    sizes: Counter[str] = Counter(r.group for r in records if r.source != "docs")
    codes: dict[str, list[frozenset[int]]] = {}
    for r in records:
        if r.source != "docs" and r.code and len(codes.setdefault(r.group, [])) < per_group_codes:
            codes[r.group].append(shingles(r.code))
    graph = nx.Graph()
    graph.add_nodes_from(sizes)
    edges = []
    for a, b in itertools.combinations(sorted(codes), 2):
        best = max((jaccard(x, y) for x in codes[a] for y in codes[b]), default=0.0)
        if best >= threshold:
            graph.add_edge(a, b, weight=best)
            edges.append((a, b, round(best, 3)))
    components = [sorted(c) for c in nx.connected_components(graph)]
    order = sorted(components, key=lambda c: hashlib.sha1(f"{seed}:{c[0]}".encode()).hexdigest())
    total = sum(sizes.values())
    assignment = {g: "train" for r in records for g in [r.group]}
    in_test = 0
    for component in order:
        size = sum(sizes[g] for g in component)
        if in_test + size > test_share * total * 1.25 and in_test > 0:
            continue
        if in_test >= test_share * total:
            break
        for g in component:
            assignment[g] = "test"
        in_test += size
    return Split(assignment, [c for c in components if len(c) > 1], edges)
