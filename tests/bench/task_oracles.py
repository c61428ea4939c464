"""Independent computations of the bundled tasks' outputs, to check the numpy references against.

Each oracle takes the reference's inputs and attributes and returns some or all outputs. They use torch on
CPU (its own kernels, not the references' numpy formulas) in float64, or, where torch has no such op, a
straightforward loop over the definition.
"""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
torch = __import__("pytest").importorskip("torch")
F = torch.nn.functional


def t64(a: np.ndarray):
    """A float64 torch tensor of a numpy array (integers stay integers)."""
    t = torch.from_numpy(np.ascontiguousarray(a))
    return t.double() if t.is_floating_point() else t


def back(t, like: np.ndarray | str) -> np.ndarray:
    dtype = like if isinstance(like, str) else like.dtype
    return t.detach().numpy().astype(dtype)


def compare(task, case_id: str, name: str, expected: np.ndarray, got: np.ndarray) -> None:
    """The reference's output against the oracle's: exact for integers, a few ulps for floats."""
    where = f"{task.name}/{case_id}/{name}"
    assert expected.shape == got.shape, f"{where}: shape {expected.shape} vs oracle {got.shape}"
    assert expected.dtype == got.dtype, f"{where}: dtype {expected.dtype} vs oracle {got.dtype}"
    if expected.dtype.kind != "f":
        assert np.array_equal(expected, got), f"{where}: differs from the oracle"
        return
    eps = float(np.finfo(expected.dtype).eps)
    np.testing.assert_allclose(expected.astype(np.float64), got.astype(np.float64), rtol=4 * eps, atol=4 * eps,
                               err_msg=where)


def unary(fn):
    return lambda i, a: {"y": back(fn(t64(i["x"]), a), i["x"])}


def binary(fn, names=("x1", "x2")):
    return lambda i, a: {"y": back(fn(t64(i[names[0]]), t64(i[names[1]]), a), i[names[0]])}


ORACLES = {
    # level 1, math
    "sqrt": unary(lambda x, a: torch.sqrt(x)),
    "rsqrt": unary(lambda x, a: torch.rsqrt(x)),
    "abs": unary(lambda x, a: torch.abs(x)),
    "neg": unary(lambda x, a: torch.neg(x)),
    "exp": unary(lambda x, a: torch.exp(x)),
    "log": unary(lambda x, a: torch.log(x)),
    "reciprocal": unary(lambda x, a: torch.reciprocal(x)),
    "square": unary(lambda x, a: torch.square(x)),
    "muls": unary(lambda x, a: torch.mul(x, a["scale"])),
    "pow_scalar": unary(lambda x, a: torch.pow(x, a["exponent"])),
    "clip_by_value": unary(lambda x, a: torch.clamp(x, a["min_value"], a["max_value"])),
    "add": binary(lambda x, y, a: torch.add(x, y)),
    "sub": binary(lambda x, y, a: torch.sub(x, y)),
    "mul": binary(lambda x, y, a: torch.mul(x, y)),
    "div": binary(lambda x, y, a: torch.div(x, y)),
    "maximum": binary(lambda x, y, a: torch.maximum(x, y)),
    "minimum": binary(lambda x, y, a: torch.minimum(x, y)),
    "squared_difference": binary(lambda x, y, a: torch.square(torch.sub(x, y))),
    "axpy": binary(lambda x, y, a: torch.add(y, x, alpha=a["alpha"])),
    "lerp": binary(lambda s, e, a: torch.lerp(s, e, a["weight"]), ("start", "end")),
    "addcmul": lambda i, a: {"y": back(torch.addcmul(t64(i["x"]), t64(i["t1"]), t64(i["t2"]), value=a["value"]),
                                       i["x"])},
    "addcdiv": lambda i, a: {"y": back(torch.addcdiv(t64(i["x"]), t64(i["t1"]), t64(i["t2"]), value=a["value"]),
                                       i["x"])},
    # level 1, activation
    "relu": unary(lambda x, a: torch.relu(x)),
    "leaky_relu": unary(lambda x, a: F.leaky_relu(x, a["negative_slope"])),
    "sigmoid": unary(lambda x, a: torch.sigmoid(x)),
    "silu": unary(lambda x, a: F.silu(x)),
    "tanh": unary(lambda x, a: torch.tanh(x)),
    "hardsigmoid": unary(lambda x, a: F.hardsigmoid(x)),
    "hardswish": unary(lambda x, a: F.hardswish(x)),
    "softplus": unary(lambda x, a: F.softplus(x)),
    "elu": unary(lambda x, a: F.elu(x, a["alpha"])),
    # level 1, comparison
    "equal": lambda i, a: {"y": torch.eq(t64(i["x1"]), t64(i["x2"])).numpy()},
    "less": lambda i, a: {"y": torch.lt(t64(i["x1"]), t64(i["x2"])).numpy()},
    "greater_equal": lambda i, a: {"y": torch.ge(t64(i["x1"]), t64(i["x2"])).numpy()},
    "is_finite": lambda i, a: {"y": torch.isfinite(t64(i["x"])).numpy()},
    "where": lambda i, a: {"y": back(torch.where(torch.from_numpy(i["condition"]), t64(i["x1"]), t64(i["x2"])),
                                     i["x1"])},
    # level 1, cast (torch's own conversions, from the original dtype)
    "cast_f16_to_f32": lambda i, a: {"y": torch.from_numpy(i["x"]).to(torch.float32).numpy()},
    "cast_f32_to_f16": lambda i, a: {"y": torch.from_numpy(i["x"]).to(torch.float16).numpy()},
    "cast_f32_to_i32": lambda i, a: {"y": torch.from_numpy(i["x"]).to(torch.int32).numpy()},
    "cast_i32_to_f32": lambda i, a: {"y": torch.from_numpy(i["x"]).to(torch.float32).numpy()},
    # level 1, creation
    "arange": lambda i, a: {"y": back(torch.arange(a["size"], dtype=torch.int64) * t64(i["step"])[0]
                                      + t64(i["start"])[0], i["start"])},
    "fill": lambda i, a: {"y": back(torch.full(tuple(a["dims"]), float(i["value"][0]), dtype=torch.float64),
                                    i["value"])},
    "linspace": lambda i, a: {"y": back(torch.linspace(float(i["start"][0]), float(i["end"][0]), a["steps"],
                                                       dtype=torch.float64), i["start"])},
    # level 1, index
    "gather_rows": lambda i, a: {"y": torch.index_select(torch.from_numpy(i["x"]), 0,
                                                         torch.from_numpy(i["index"]).long()).numpy()},
    "scatter_update": lambda i, a: {"var_out": torch.from_numpy(i["var"]).index_copy(
        0, torch.from_numpy(i["indices"]).long(), torch.from_numpy(i["updates"])).numpy()},
    "one_hot": lambda i, a: {"y": F.one_hot(torch.from_numpy(i["indices"]).long(), a["depth"]).int().numpy()},
    # level 2, norm
    "layer_norm": lambda i, a: {"y": back(F.layer_norm(t64(i["x"]), (i["x"].shape[-1],), t64(i["gamma"]),
                                                       t64(i["beta"]), a["epsilon"]), i["x"])},
    "rms_norm": lambda i, a: {"y": back(F.rms_norm(t64(i["x"]), (i["x"].shape[-1],), t64(i["gamma"]), a["epsilon"]),
                                        i["x"])},
    "add_rms_norm": lambda i, a: _add_norm(i, lambda s: F.rms_norm(s, (s.shape[-1],), t64(i["gamma"]), a["epsilon"])),
    "add_layer_norm": lambda i, a: _add_norm(i, lambda s: F.layer_norm(s, (s.shape[-1],), t64(i["gamma"]),
                                                                      t64(i["beta"]), a["epsilon"])),
    "l2_normalize": lambda i, a: {"y": back(F.normalize(t64(i["x"]), p=2.0, dim=-1, eps=a["epsilon"]), i["x"])},
    "batch_norm_infer": lambda i, a: {"y": back(F.batch_norm(
        t64(i["x"]).reshape(-1, i["x"].shape[-1]), t64(i["mean"]), t64(i["var"]), t64(i["gamma"]), t64(i["beta"]),
        training=False, eps=a["epsilon"]).reshape(i["x"].shape), i["x"])},
    # level 2, softmax and reduce
    "softmax": unary(lambda x, a: torch.softmax(x, dim=-1)),
    "log_softmax": unary(lambda x, a: torch.log_softmax(x, dim=-1)),
    "reduce_sum": unary(lambda x, a: torch.sum(x, dim=-1)),
    "reduce_mean": unary(lambda x, a: torch.mean(x, dim=-1)),
    "reduce_max": unary(lambda x, a: torch.amax(x, dim=-1)),
    "logsumexp": unary(lambda x, a: torch.logsumexp(x, dim=-1)),
    "vector_norm": unary(lambda x, a: torch.linalg.vector_norm(x, dim=-1)),
    "argmax": lambda i, a: {"y": torch.argmax(t64(i["x"]), dim=-1).int().numpy()},
    # level 2, fused activations (gradients through autograd)
    "gelu": unary(lambda x, a: F.gelu(x, approximate="tanh")),
    "fast_gelu": unary(lambda x, a: x * torch.sigmoid(1.702 * x)),
    "gelu_grad": lambda i, a: {"dx": back(_grad(lambda x: F.gelu(x, approximate="tanh"), i["x"], i["dy"]), i["dy"])},
    "silu_grad": lambda i, a: {"dx": back(_grad(F.silu, i["x"], i["dy"]), i["dy"])},
    "swiglu": lambda i, a: {"y": back(_glu(t64(i["x"]), F.silu), i["x"])},
    "geglu": lambda i, a: {"y": back(_glu(t64(i["x"]), lambda v: F.gelu(v, approximate="tanh")), i["x"])},
    "sigmoid_mul": lambda i, a: {"y": back(t64(i["x"]) * torch.sigmoid(t64(i["gate"])), i["x"])},
    # level 2, losses
    "smooth_l1_loss": lambda i, a: {"loss": back(F.smooth_l1_loss(t64(i["input"]), t64(i["target"]), reduction="none",
                                                                  beta=a["beta"]), i["input"])},
    "bce_with_logits": lambda i, a: {"loss": back(F.binary_cross_entropy_with_logits(
        t64(i["logits"]), t64(i["target"]), reduction="none"), i["logits"])},
    "cross_entropy_loss": lambda i, a: {"loss": back(F.cross_entropy(
        t64(i["logits"]), torch.from_numpy(i["target"]).long(), reduction="none"), i["logits"])},
    "mse_loss": lambda i, a: {"loss": back(F.mse_loss(t64(i["predict"]), t64(i["target"])), i["predict"])},
    "kl_div": lambda i, a: {"loss": back(F.kl_div(t64(i["input"]), t64(i["target"]), reduction="none"), i["input"])},
    # level 2, foreach (torch's own _foreach kernels)
    "foreach_add_scalar": lambda i, a: _listed(torch._foreach_add([t64(i[f"x{k}"]) for k in range(3)], a["scalar"]),
                                               i["x0"]),
    "foreach_mul_list": lambda i, a: _listed(torch._foreach_mul([t64(i[f"a{k}"]) for k in range(3)],
                                                                [t64(i[f"b{k}"]) for k in range(3)]), i["a0"]),
    "foreach_exp": lambda i, a: _listed(torch._foreach_exp([t64(i[f"x{k}"]) for k in range(3)]), i["x0"]),
    # level 2, mask
    "tril": lambda i, a: {"y": torch.tril(torch.from_numpy(i["x"]), a["diagonal"]).numpy()},
    "triu": lambda i, a: {"y": torch.triu(torch.from_numpy(i["x"]), a["diagonal"]).numpy()},
    # level 2, optimisers: torch.optim's own step() from the given state
    "sgd_momentum": lambda i, a: _optim_step(
        torch.optim.SGD, i, {"lr": a["lr"], "momentum": a["momentum"], "weight_decay": a["weight_decay"]},
        {"momentum_buffer": "momentum_buffer"}),
    "adamw": lambda i, a: _optim_step(
        torch.optim.AdamW, i, {"lr": a["lr"], "betas": (a["beta1"], a["beta2"]), "eps": a["eps"],
                               "weight_decay": a["weight_decay"]},
        {"exp_avg": "exp_avg", "exp_avg_sq": "exp_avg_sq"}, steps_done=a["step"] - 1),
    "rmsprop": lambda i, a: _optim_step(
        torch.optim.RMSprop, i, {"lr": a["lr"], "alpha": a["alpha"], "eps": a["eps"]}, {"square_avg": "square_avg"}),
    # level 3, matmul
    "matmul": lambda i, a: {"c": back(torch.matmul(t64(i["a"]), t64(i["b"])), "float32")},
    "matmul_bias": lambda i, a: {"c": back(torch.addmm(t64(i["bias"]), t64(i["a"]), t64(i["b"])), "float32")},
    "matmul_transpose_b": lambda i, a: {"c": back(F.linear(t64(i["a"]), t64(i["b"])), "float32")},
    "matmul_fp16_out": lambda i, a: {"c": back(torch.matmul(t64(i["a"]), t64(i["b"])), "float16")},
    "matmul_gelu": lambda i, a: {"c": back(F.gelu(torch.addmm(t64(i["bias"]), t64(i["a"]), t64(i["b"])),
                                                  approximate="tanh"), "float32")},
    "attention": lambda i, a: {"out": back(F.scaled_dot_product_attention(t64(i["q"]), t64(i["k"]), t64(i["v"]),
                                                                          scale=a["scale"]), "float32")},
    "linear_relu": lambda i, a: {"y": back(torch.relu(F.linear(t64(i["x"]), t64(i["w"]))), "float32")},
    "batched_matmul": lambda i, a: {"c": back(torch.bmm(t64(i["a"]), t64(i["b"])), "float32")},
}


def _optim_step(cls, i, options, state_names, steps_done=0):
    """One step() of a torch optimiser on `param` with `grad`, its state taken from the inputs."""
    p = torch.nn.Parameter(t64(i["param"]).clone())
    p.grad = t64(i["grad"]).clone()
    opt = cls([p], **options)
    state = {key: t64(i[name]).clone() for key, name in state_names.items()}
    if cls is not torch.optim.SGD:
        state["step"] = torch.tensor(float(steps_done), dtype=torch.float64)
    opt.state[p] = state
    opt.step()
    out = {"param_out": back(p.detach(), "float32")}
    out.update({f"{name}_out": back(opt.state[p][key], "float32") for key, name in state_names.items()})
    return out


def _listed(tensors, like):
    return {f"y{k}": back(t, like) for k, t in enumerate(tensors)}


def _glu(x, act):
    a, b = torch.chunk(x, 2, dim=-1)
    return act(a) * b


def _grad(fn, x, dy):
    """d fn / dx applied to dy, by autograd in float64."""
    xt = t64(x).requires_grad_(True)
    (g,) = torch.autograd.grad(fn(xt), xt, grad_outputs=t64(dy))
    return g


def _add_norm(i, norm):
    s = torch.add(t64(i["x1"]), t64(i["x2"]))
    return {"y": back(norm(s), i["x1"]), "sum": back(s, i["x1"])}
