"""happens_before.PendingRead against the happens-before graph it stands for: on random paths of pipe
instructions, SetFlag/WaitFlag and barriers, a later instruction on pipe Q is ordered after the read (Q in
`after`) exactly when the graph (built explicitly with networkx) has a path from the read to it."""

from __future__ import annotations

import random

import networkx as nx

from ascendir.catalog import Catalog
from passes.verify.happens_before import PIPES, BufferFlag, PendingRead, QueueFlag, Reach, event_pipes

_PIPES = sorted(PIPES)
_EVENTS = [f"{a}_{b}" for a in _PIPES for b in _PIPES if a != b]


class _Graph:
    """The explicit graph: nodes are instructions, `preds[q]` the nodes the next instruction on q follows."""

    def __init__(self) -> None:
        self.g = nx.DiGraph()
        self.preds: dict[str, set[int]] = {q: set() for q in _PIPES}
        self.flags: dict[tuple[str, int], int] = {}

    def node(self, pipe: str | None, extra: tuple[int, ...] = ()) -> int:
        i = self.g.number_of_nodes()
        self.g.add_node(i)
        for p in ([pipe] if pipe is not None else _PIPES):
            self.g.add_edges_from((j, i) for j in self.preds[p])
        self.g.add_edges_from((j, i) for j in extra)
        if pipe is None:  # a full barrier: before every later instruction
            self.preds = {q: {i} for q in _PIPES}
        elif pipe == "S":  # the scalar unit issues everything after it
            self.preds = {q: (self.preds[q] | {i}) for q in _PIPES}
            self.preds["S"] = {i}
        else:
            self.preds[pipe] = {i}
        return i

    def set_flag(self, event: str, ident: int) -> None:
        self.flags[(event, ident)] = self.node(event.partition("_")[0])

    def wait_flag(self, event: str, ident: int) -> None:
        setter = self.flags.pop((event, ident), None)
        self.node(event.partition("_")[2], () if setter is None else (setter,))


def test_pending_read_is_reachability_in_the_graph() -> None:
    rng = random.Random(20261130)
    compared = ordered = 0
    for _ in range(1500):
        graph = _Graph()
        start = rng.choice(_PIPES)
        read_node = graph.node(start)
        read = PendingRead.start(start, 0, None, 0)
        for _ in range(rng.randrange(1, 14)):
            kind = rng.random()
            if kind < 0.4:
                pipe = rng.choice(_PIPES)
                j = graph.node(pipe)
                reachable = nx.has_path(graph.g, read_node, j)
                assert read.orders(pipe) == reachable, (start, pipe)
                compared += 1
                ordered += reachable
            elif kind < 0.95:
                event, ident = rng.choice(_EVENTS), rng.randrange(2)
                if kind < 0.675:
                    graph.set_flag(event, ident)
                    read = read.set_flag(event, (event, ident))
                else:
                    graph.wait_flag(event, ident)
                    read = read.wait_flag(event, (event, ident))
            else:
                graph.node(None)
                read = read.replace(after=PIPES, carried=frozenset())
    assert compared > 3000 and 0.2 < ordered / compared < 0.8  # both answers are exercised


def test_a_missing_link_leaves_the_write_unordered() -> None:
    read = PendingRead.start("MTE3", 0, None, 0)
    chain = [("SetFlag", "MTE3_MTE2"), ("WaitFlag", "MTE3_MTE2"), ("SetFlag", "MTE2_V"), ("WaitFlag", "MTE2_V")]

    def run(steps: list[tuple[str, str]]) -> PendingRead:
        r = read
        for api, event in steps:
            r = r.set_flag(event, (event, 0)) if api == "SetFlag" else r.wait_flag(event, (event, 0))
        return r

    assert run(chain).orders("V")
    for dropped in range(len(chain)):
        assert not run(chain[:dropped] + chain[dropped + 1:]).orders("V")
    assert not run(chain[2:] + chain[:2]).orders("V")  # the links in the wrong order


def test_event_pipes_is_the_catalogs_reading_of_a_hard_event() -> None:
    for event in _EVENTS:
        assert event_pipes(event) == tuple(p.removeprefix("PIPE_") for p in Catalog.hard_event_pipes(event))
    assert event_pipes("EVT") is None and event_pipes("EVENT_ID0") is None  # not a HardEvent: no pipes


def test_a_queue_flag_follows_its_tensor_and_is_forgotten_with_its_queue() -> None:
    """EnQue(tensor 5 of queue 1) on MTE2 after the instruction, then the DeQue of that tensor (by then
    renumbered 0 with the state) orders V after it; a tensor gone from the state, or a queue op on that queue
    whose tensor is not known, takes the flag with it."""
    enqueued = Reach.of("MTE2").set_flag("MTE2_V", QueueFlag("MTE2_V", 1, 5))
    renumbered = enqueued.renumber({5: 0, 7: 1})
    assert renumbered.wait_flag("MTE2_V", QueueFlag("MTE2_V", 1, 0)).orders("V")
    assert not renumbered.wait_flag("MTE2_V", QueueFlag("MTE2_V", 1, 1)).orders("V")  # another tensor
    assert not enqueued.renumber({7: 0}).wait_flag("MTE2_V", QueueFlag("MTE2_V", 1, 0)).orders("V")
    assert enqueued.forget({2}).carried == enqueued.carried  # another queue's op
    assert enqueued.forget({1}, "V_MTE3").carried == enqueued.carried  # another event
    assert not enqueued.forget({1}).wait_flag("MTE2_V", QueueFlag("MTE2_V", 1, 5)).orders("V")
    # set on a pipe not ordered after the instruction: no edge
    assert not Reach.of("V").set_flag("MTE2_V", QueueFlag("MTE2_V", 1, 5)).carried


def test_a_buffer_flag_follows_its_buffer_through_renumbering_and_is_forgotten_with_its_queue() -> None:
    """FreeTensor of buffer 1 of VECOUT queue 3 on MTE3 after a copy-out, then the AllocTensor that takes buffer 1
    again orders V after the copy-out; the other buffer's AllocTensor does not, a buffer is not renumbered with
    the state's tensors, and an op of that queue whose buffer is not known takes the flag with it."""
    freed = Reach.of("MTE3").set_flag("MTE3_V", BufferFlag("MTE3_V", 3, 1))
    assert freed.wait_flag("MTE3_V", BufferFlag("MTE3_V", 3, 1)).orders("V")
    assert not freed.wait_flag("MTE3_V", BufferFlag("MTE3_V", 3, 0)).orders("V")  # the other buffer
    assert freed.renumber({1: 0}).carried == freed.carried
    assert freed.forget({3}, "MTE2_V").carried == freed.carried  # the queue's other event
    assert not freed.forget({3}, "MTE3_V").wait_flag("MTE3_V", BufferFlag("MTE3_V", 3, 1)).orders("V")
    # set before the instruction reached MTE3 (a copy-out after the free): no edge
    assert not Reach.of("V").set_flag("MTE3_V", BufferFlag("MTE3_V", 3, 1)).carried
    # a wait that would order nothing new is not carried (V is already ordered after it)
    assert not Reach(frozenset({"MTE3", "V"}), frozenset()).set_flag("MTE3_V", BufferFlag("MTE3_V", 3, 1)).carried
