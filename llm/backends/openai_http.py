"""Any OpenAI-compatible chat endpoint (a vLLM or SGLang server, a hosted API) over httpx.

Requests run concurrently on a thread pool (`concurrency` at a time). A request that fails for a transient
reason (connection refused or reset, a timeout, HTTP 429 or 5xx, a reply that is not the JSON of a chat
completion) is retried with exponential backoff and jitter, `retries` times. If the server still cannot be
reached, the run stops with EndpointUnavailable naming the URL; a prompt whose replies stay malformed, or that
the server refuses (HTTP 4xx), fails alone with BackendError.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from llm.backends.base import BackendError, Completion, EndpointUnavailable, GenerationParams, Messages

_TRANSIENT_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAICompatible:
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout_s: float = 300.0,
                 connect_timeout_s: float = 10.0, retries: int = 4, backoff_s: float = 1.0,
                 max_backoff_s: float = 30.0, concurrency: int = 8, seed: int = 0) -> None:
        import httpx

        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.concurrency = max(1, concurrency)
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
                                    limits=httpx.Limits(max_connections=self.concurrency))
        self._jitter = random.Random(seed)
        self._lock = threading.Lock()
        self.timeout_s = timeout_s

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "base_url": self.base_url, "model": self.model}

    def close(self) -> None:
        self._client.close()

    def generate(self, prompts: Sequence[Messages], params: GenerationParams) -> list[list[Completion]]:
        if self.concurrency == 1 or len(prompts) == 1:
            return [self.complete(p, params) for p in prompts]
        with ThreadPoolExecutor(self.concurrency) as pool:
            futures = [pool.submit(self.complete, p, params) for p in prompts]
            return [f.result() for f in futures]

    def complete(self, messages: Messages, params: GenerationParams) -> list[Completion]:
        """`params.n` completions of one prompt."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "n": params.n,
                                "temperature": params.temperature, "top_p": params.top_p,
                                "max_tokens": params.max_new_tokens}
        if params.seed is not None:
            body["seed"] = params.seed
        if params.stop:
            body["stop"] = list(params.stop)
        reply = self._post("/chat/completions", body)
        return _completions(reply, params.n)

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        url = self.base_url + path
        last = ""
        unreachable = False
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self._delay(attempt))
            try:
                response = self._client.post(url, json=body)
            except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                unreachable, last = True, f"{type(exc).__name__}: {exc}"
                continue
            except httpx.TimeoutException as exc:
                unreachable, last = False, f"no reply within {self.timeout_s:g} s ({type(exc).__name__})"
                continue
            unreachable = False
            if response.status_code in _TRANSIENT_STATUS:
                last = f"HTTP {response.status_code}: {response.text[:200]}"
                continue
            if response.status_code >= 400:
                raise BackendError(f"{url} refused the request: HTTP {response.status_code}: {response.text[:300]}")
            try:
                data = response.json()
            except ValueError:
                last = f"the reply is not JSON: {response.text[:200]!r}"
                continue
            if _malformed(data) is None:
                return data  # type: ignore[no-any-return]
            last = _malformed(data) or ""
        if unreachable:
            raise EndpointUnavailable(f"cannot reach the endpoint {self.base_url} after {self.retries + 1} attempts "
                                      f"({last}); is the server running and the URL right?")
        raise BackendError(f"{url}: no usable reply after {self.retries + 1} attempts: {last}")

    def _delay(self, attempt: int) -> float:
        with self._lock:
            jitter = self._jitter.uniform(0.5, 1.0)
        return min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1)) * jitter


def _malformed(data: Any) -> str | None:
    """Why `data` is not a chat completion reply, or None when it is one."""
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list) or not data["choices"]:
        return f"the reply has no choices: {str(data)[:200]}"
    for choice in data["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict) or not isinstance(message.get("content"), (str, type(None))):
            return f"a choice has no message content: {str(choice)[:200]}"
    return None


def _completions(reply: dict[str, Any], n: int) -> list[Completion]:
    out = []
    for choice in reply["choices"][:n]:
        message = choice["message"]
        text = message.get("content") or ""
        # vLLM's reasoning parsers put the thinking apart; keep it in front, where split_reasoning finds it
        thinking = message.get("reasoning_content") or message.get("reasoning")
        if thinking:
            text = f"<think>{thinking}</think>\n{text}"
        out.append(Completion(text, str(choice.get("finish_reason") or ""),
                              (reply.get("usage") or {}).get("completion_tokens")))
    if len(out) < n:
        raise BackendError(f"the server returned {len(out)} completions, {n} were asked for (does it support n?)")
    return out
