"""The OpenAI-compatible back end against a local mock server on 127.0.0.1: replies, retries with backoff,
timeouts, malformed replies, a server that is down, and resumable sample files."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from llm.backends import (
    BackendError,
    EndpointUnavailable,
    GenerationParams,
    SampleStore,
    generate_samples,
    split_reasoning,
)
from llm.backends.openai_http import OpenAICompatible
from llm.prompts import Prompt

Behaviour = Callable[[int, dict], tuple[int, str, float]]  # (request number, body) -> (status, reply, delay)


def chat_reply(body: dict, text: str = "<think>tile 2048</think>\n=== op_kernel/k.cpp ===\n```cpp\nint x;\n```") -> str:
    return json.dumps({"choices": [{"index": i, "message": {"role": "assistant", "content": f"{text} #{i}"},
                                    "finish_reason": "stop"} for i in range(body.get("n", 1))],
                       "usage": {"completion_tokens": 7}})


class MockServer:
    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "body": body})
                status, reply, delay = server.behaviour(len(server.requests), body)
                time.sleep(delay)
                payload = reply.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[[Behaviour], MockServer]]:
    servers: list[MockServer] = []

    def start(behaviour: Behaviour) -> MockServer:
        servers.append(MockServer(behaviour))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def client(url: str, **options: object) -> OpenAICompatible:
    defaults: dict = {"retries": 3, "backoff_s": 0.01, "max_backoff_s": 0.05, "timeout_s": 2.0, "concurrency": 4}
    return OpenAICompatible(url, "tiny", **{**defaults, **options})


MESSAGES = [{"role": "user", "content": "write relu"}]


def test_a_reply_gives_n_completions_split_into_reasoning_and_answer(serve) -> None:  # type: ignore[no-untyped-def]
    server = serve(lambda k, body: (200, chat_reply(body), 0.0))
    (completions,) = client(server.url).generate([MESSAGES], GenerationParams(n=3, temperature=0.5, seed=7))
    assert len(completions) == 3 and completions[0].reasoning == "tile 2048"
    assert completions[2].answer.startswith("=== op_kernel/k.cpp ===") and completions[0].tokens == 7
    body = server.requests[0]["body"]
    assert server.requests[0]["path"] == "/v1/chat/completions"
    assert body["n"] == 3 and body["temperature"] == 0.5 and body["seed"] == 7 and body["messages"] == MESSAGES


def test_transient_failures_are_retried(serve) -> None:  # type: ignore[no-untyped-def]
    replies = {1: (503, "overloaded", 0.0), 2: (429, "slow down", 0.0), 3: (200, "not json", 0.0)}
    server = serve(lambda k, body: replies.get(k, (200, chat_reply(body), 0.0)))
    (completions,) = client(server.url).generate([MESSAGES], GenerationParams())
    assert len(server.requests) == 4 and completions[0].answer


def test_a_slow_reply_times_out_and_is_retried(serve) -> None:  # type: ignore[no-untyped-def]
    server = serve(lambda k, body: (200, chat_reply(body), 1.0 if k == 1 else 0.0))
    started = time.monotonic()
    (completions,) = client(server.url, timeout_s=0.3).generate([MESSAGES], GenerationParams())
    assert completions[0].answer and len(server.requests) == 2 and time.monotonic() - started < 1.5


def test_a_malformed_reply_fails_that_prompt_with_the_reason(serve) -> None:  # type: ignore[no-untyped-def]
    server = serve(lambda k, body: (200, json.dumps({"choices": [{"text": "legacy"}]}), 0.0))
    with pytest.raises(BackendError, match="no message content") as info:
        client(server.url, retries=2).generate([MESSAGES], GenerationParams())
    assert not isinstance(info.value, EndpointUnavailable) and len(server.requests) == 3


def test_a_refused_request_is_not_retried(serve) -> None:  # type: ignore[no-untyped-def]
    server = serve(lambda k, body: (400, '{"error": "prompt too long"}', 0.0))
    with pytest.raises(BackendError, match="HTTP 400.*prompt too long"):
        client(server.url).generate([MESSAGES], GenerationParams())
    assert len(server.requests) == 1


def test_a_server_that_is_down_is_a_clear_error() -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(EndpointUnavailable, match=f"cannot reach the endpoint http://127.0.0.1:{port}/v1 after 3 "
                                                  "attempts.*is the server running"):
        client(f"http://127.0.0.1:{port}/v1", retries=2).generate([MESSAGES], GenerationParams())


def prompts(n: int) -> list[Prompt]:
    return [Prompt([{"role": "user", "content": f"task {i}"}], f"t{i}", "bundled", "npukernelbench", "project", "c0")
            for i in range(n)]


def test_samples_are_saved_and_a_run_resumes(serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    failing = {"task 2"}  # refused in the first run only

    def behaviour(k: int, body: dict) -> tuple[int, str, float]:
        if body["messages"][0]["content"] in failing:
            return 400, "bad prompt", 0.0
        return 200, chat_reply(body), 0.0

    server = serve(behaviour)
    store = SampleStore(tmp_path / "samples.jsonl")
    backend = client(server.url)
    first = generate_samples(backend, prompts(3), 2, GenerationParams(seed=1), store, batch=2)
    assert first == {"generated": 4, "skipped": 0, "failed": 2}
    record = next(store.records())
    assert record["reasoning"] == "tile 2048" and record["backend"]["model"] == "tiny"
    assert record["params"]["seed"] == 1 and record["prompt"] == prompts(1)[0].messages
    before = len(server.requests)
    failing.clear()
    second = generate_samples(backend, prompts(3), 2, GenerationParams(seed=1), store, batch=2)
    assert second == {"generated": 2, "skipped": 4, "failed": 0}
    assert len(server.requests) - before == 1  # only the failed prompt was asked again
    assert len(store.latest()) == 6 and not any(r["error"] for r in store.latest().values())


def test_split_reasoning_finds_each_answer_format() -> None:
    assert split_reasoning("plan\n<kernel_impl>\n```cpp\nx\n```") == ("plan", "<kernel_impl>\n```cpp\nx\n```")
    assert split_reasoning("plan\n```python\nkernel_src = ''\n```")[0] == "plan"
    assert split_reasoning("no answer here") == ("", "no answer here")
