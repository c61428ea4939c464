"""The names the test-case evaluator knows: Python's builtins, the calls and keywords it ignores (seeds,
devices), torch's elementwise functions and factories, and the tensor methods that are binary operators or
comparisons.
"""

from __future__ import annotations

import ast


BUILTINS = {"int", "float", "bool", "len", "min", "max", "abs", "round", "sum", "tuple", "list", "range"}
IGNORED_CALLS = {"torch.manual_seed", "random.seed", "numpy.random.seed", "torch.cuda.manual_seed",
                 "torch.cuda.manual_seed_all", "torch.use_deterministic_algorithms", "print"}
IGNORED_KWARGS = {"device", "requires_grad", "pin_memory", "layout", "generator", "memory_format",
                  "non_blocking", "copy"}
ELEMENTWISE = {
    "abs", "absolute", "neg", "negative", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "gelu", "silu", "sin", "cos", "tan", "sign", "floor",
    "ceil", "round", "trunc", "frac", "reciprocal", "square", "tril", "triu", "softmax", "log_softmax",
    "clamp", "clip", "clamp_min", "clamp_max", "normalize", "contiguous", "clone", "detach", "cuda", "cpu",
    "requires_grad_", "normal_", "uniform_", "fill_", "zero_", "exponential_", "random_", "bernoulli_",
    "abs_", "clamp_", "mul_", "add_", "div_", "sub_", "pin_memory", "leaky_relu", "elu", "selu",
    "softplus", "hardtanh", "nan_to_num", "cumsum", "flip", "roll", "dropout", "erf", "sort_values",
    "bernoulli", "layer_norm",
}
# elementwise ops that make a float result from an integer tensor
FLOAT_RESULT = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh",
                "sin", "cos", "tan", "reciprocal", "softmax", "log_softmax", "gelu", "silu", "erf"}
FACTORIES = {"rand", "randn", "zeros", "ones", "empty"}
LIKE_FACTORIES = {"rand_like", "randn_like", "zeros_like", "ones_like", "empty_like"}
BINARY_METHODS: dict[str, type[ast.operator]] = {
    "add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "div": ast.Div, "pow": ast.Pow,
    "matmul": ast.MatMult, "floor_divide": ast.FloorDiv, "remainder": ast.Mod,
}
COMPARE_METHODS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
                   "isnan", "isinf", "isfinite", "logical_not"}
