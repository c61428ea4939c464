"""Small models built from a config, with a tokenizer trained on the spot: for tests, CPU smoke runs of the
training commands, and GPU throughput runs at whatever size a config gives. Nothing is downloaded.

    ascendir train init-model OUT --arch qwen3 [--hidden 64 --layers 2] [--texts FILES...]

The architecture is the seed model's family (Qwen3, dense or MoE). The tokenizer is byte-level BPE trained
on the given texts (by default the bundled AscendC corpus and prompts, so kernels tokenise compactly), with a
Qwen-style chat template whose assistant turns are marked `{% generation %}` for trl's assistant-only loss.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"]

# Qwen's ChatML layout; `generation` marks what the assistant wrote, for assistant_only_loss
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'assistant' %}"
    "{{ '<|im_start|>assistant\\n' }}{% generation %}{{ message['content'] + '<|im_end|>' }}{% endgeneration %}"
    "{{ '\\n' }}"
    "{% else %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


@dataclass(frozen=True)
class TinySpec:
    """The size of a model built from a config. The defaults make a ~0.1M-parameter model that trains a step
    in milliseconds on one CPU thread; a GPU run raises them."""

    arch: str = "qwen3"  # or "qwen3_moe"
    hidden: int = 64
    layers: int = 2
    heads: int = 4
    kv_heads: int = 2
    intermediate: int = 128
    experts: int = 4  # MoE only
    experts_per_token: int = 2  # MoE only
    vocab: int = 1024  # the tokenizer's target size
    max_positions: int = 4096


def default_texts() -> list[str]:
    """AscendC the tokenizer learns its merges from: the repository's clean corpus and example kernels."""
    root = Path(__file__).resolve().parents[2]
    texts = []
    for folder in (root / "tests" / "corpus" / "clean", root / "examples"):
        if folder.is_dir():
            texts += [p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.rglob("*"))
                      if p.is_file() and p.suffix in (".cpp", ".h", ".asc", ".md", ".py")]
    return texts


def train_tokenizer(texts: Iterable[str], vocab: int = 1024) -> Any:
    """A byte-level BPE tokenizer trained on `texts`, as a transformers fast tokenizer with the chat template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    core.train_from_iterator(list(texts), trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        bos_token=None, unk_token=None)
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.model_max_length = 4096
    return tokenizer


def model_config(spec: TinySpec, tokenizer: Any) -> Any:
    """A Qwen3 (or Qwen3-MoE) config of the spec's size for the tokenizer's vocabulary."""
    from transformers import Qwen3Config, Qwen3MoeConfig

    common = dict(vocab_size=len(tokenizer), hidden_size=spec.hidden, num_hidden_layers=spec.layers,
                  num_attention_heads=spec.heads, num_key_value_heads=spec.kv_heads,
                  head_dim=spec.hidden // spec.heads, max_position_embeddings=spec.max_positions,
                  tie_word_embeddings=True, pad_token_id=tokenizer.pad_token_id,
                  eos_token_id=tokenizer.eos_token_id, bos_token_id=None)
    if spec.arch == "qwen3":
        return Qwen3Config(intermediate_size=spec.intermediate, **common)
    if spec.arch == "qwen3_moe":
        return Qwen3MoeConfig(intermediate_size=spec.intermediate, moe_intermediate_size=spec.intermediate // 2,
                              num_experts=spec.experts, num_experts_per_tok=spec.experts_per_token,
                              decoder_sparse_step=1, norm_topk_prob=True, **common)
    raise ValueError(f"unknown architecture '{spec.arch}' (known: qwen3, qwen3_moe)")


def build(spec: TinySpec, texts: Iterable[str] | None = None, seed: int = 0) -> tuple[Any, Any]:
    """(model, tokenizer): the tokenizer trained on `texts` (default: the bundled corpus), the model
    initialised from its config with `seed`."""
    import torch
    from transformers import AutoModelForCausalLM

    tokenizer = train_tokenizer(default_texts() if texts is None else texts, spec.vocab)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(model_config(spec, tokenizer))
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    return model, tokenizer


def save(model: Any, tokenizer: Any, out: Path) -> Path:
    """Writes the model and tokenizer as a directory any `from_pretrained` (and the training commands) reads."""
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
