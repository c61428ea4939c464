"""The layers of torch.nn as a ModelNew builds them: each layer's parameters with the shapes and dtypes torch
creates (Linear, Conv*, norms, Embedding, MultiheadAttention, RNN/LSTM/GRU ...), the configuration it reads
back, and which layer calls give an output shape. Separate because it is a table of torch's layers, not
evaluation.
"""

from __future__ import annotations

import ast
from typing import Any

from ascendir.model_values import ModuleObject, tuple_n
from ascendir.testcase_values import Tensor, describe


# layers without parameters: activations, pooling, dropout, shape changes
_PLAIN_LAYERS = {
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Hardtanh", "Hardswish", "Hardsigmoid",
    "Mish", "ELU", "SELU", "CELU", "Softplus", "Softsign", "Softmax", "Softmin", "LogSoftmax", "LogSigmoid",
    "Tanhshrink", "Threshold", "GLU", "Hardshrink", "Softshrink", "Dropout", "Dropout1d", "Dropout2d",
    "Dropout3d", "AlphaDropout", "Identity", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d",
    "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "Upsample",
    "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
    "CosineSimilarity", "PairwiseDistance", "MSELoss", "L1Loss", "CrossEntropyLoss", "SmoothL1Loss",
    "HuberLoss", "KLDivLoss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "TripletMarginLoss",
    "HingeEmbeddingLoss", "CosineEmbeddingLoss", "MarginRankingLoss",
}
# plain layers whose forward keeps the input's shape
_SHAPE_KEEPING = {
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Hardtanh", "Hardswish", "Hardsigmoid",
    "Mish", "ELU", "SELU", "CELU", "Softplus", "Softsign", "Softmax", "Softmin", "LogSoftmax", "LogSigmoid",
    "Tanhshrink", "Threshold", "Hardshrink", "Softshrink", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
    "AlphaDropout", "Identity", "PReLU",
}


class LayerBuilder:
    """The torch.nn layers a ModelNew builds and calls: methods of _ModelEvaluator
    (model_args.py), which inherits them."""

    # ---- torch.nn layers
    def make_layer(self, kind: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kind in ("ModuleList", "Sequential", "ParameterList"):
            if kind == "Sequential":
                items = list(args)
            else:
                bound = self.bind_args(kind, args, kwargs, ("modules" if kind == "ModuleList" else "values",), node)
                items = list(bound.get("modules", bound.get("values")) or [])
            if kind != "ParameterList" and not all(isinstance(m, ModuleObject) for m in items):
                self.fail(f"`{kind}` of something other than modules", node)
            return items
        obj = ModuleObject(kind)
        a = obj.attrs
        if kind in ("Linear", "LazyLinear"):
            if kind == "LazyLinear":
                self.fail("`LazyLinear` has no weight shape before its first call", node)
            b = self.bind_args(kind, args, kwargs, ("in_features", "out_features", "bias", "dtype"), node, 2)
            i, o = self.dim_arg(b["in_features"], node), self.dim_arg(b["out_features"], node)
            dt = self.param_dtype(b, node)
            a.update(in_features=i, out_features=o, weight=Tensor((o, i), dt),
                     bias=Tensor((o,), dt) if b.get("bias", True) else None)
        elif kind == "Bilinear":
            b = self.bind_args(kind, args, kwargs, ("in1_features", "in2_features", "out_features", "bias", "dtype"),
                               node, 3)
            i1, i2, o = (self.dim_arg(b[k], node) for k in ("in1_features", "in2_features", "out_features"))
            dt = self.param_dtype(b, node)
            a.update(in1_features=i1, in2_features=i2, out_features=o, weight=Tensor((o, i1, i2), dt),
                     bias=Tensor((o,), dt) if b.get("bias", True) else None)
        elif kind in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
            self.conv_layer(obj, kind, args, kwargs, node)
        elif kind in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
                      "InstanceNorm3d", "SyncBatchNorm"):
            instance = kind.startswith("Instance")
            b = self.bind_args(kind, args, kwargs, ("num_features", "eps", "momentum", "affine",
                                                    "track_running_stats", "dtype"), node, 1)
            c = self.dim_arg(b["num_features"], node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("affine", not instance))
            track = bool(b.get("track_running_stats", not instance))
            a.update(num_features=c, eps=b.get("eps", 1e-5), momentum=b.get("momentum", 0.1), affine=affine,
                     track_running_stats=track,
                     weight=Tensor((c,), dt) if affine else None, bias=Tensor((c,), dt) if affine else None,
                     running_mean=Tensor((c,), dt) if track else None,
                     running_var=Tensor((c,), dt) if track else None,
                     num_batches_tracked=Tensor((), "int64") if track else None)
        elif kind in ("LayerNorm", "RMSNorm"):
            params = ("normalized_shape", "eps", "elementwise_affine") + (("bias",) if kind == "LayerNorm" else ())
            b = self.bind_args(kind, args, kwargs, params + ("dtype",), node, 1)
            ns = b["normalized_shape"]
            shape = (self.dim_arg(ns, node),) if isinstance(ns, int) else self.as_shape(ns, node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("elementwise_affine", True))
            a.update(normalized_shape=shape, eps=b.get("eps", 1e-5 if kind == "LayerNorm" else None),
                     elementwise_affine=affine, weight=Tensor(shape, dt) if affine else None)
            if kind == "LayerNorm":
                a["bias"] = Tensor(shape, dt) if affine and b.get("bias", True) else None
        elif kind == "GroupNorm":
            b = self.bind_args(kind, args, kwargs, ("num_groups", "num_channels", "eps", "affine", "dtype"), node, 2)
            g, c = self.dim_arg(b["num_groups"], node), self.dim_arg(b["num_channels"], node)
            if g == 0 or c % g:
                self.fail(f"GroupNorm: {c} channels do not split into {g} groups", node)
            dt = self.param_dtype(b, node)
            affine = bool(b.get("affine", True))
            a.update(num_groups=g, num_channels=c, eps=b.get("eps", 1e-5), affine=affine,
                     weight=Tensor((c,), dt) if affine else None, bias=Tensor((c,), dt) if affine else None)
        elif kind == "Embedding":
            b = self.bind_args(kind, args, kwargs, ("num_embeddings", "embedding_dim", "padding_idx", "max_norm",
                                                    "norm_type", "scale_grad_by_freq", "sparse", "dtype"), node, 2)
            n, d = self.dim_arg(b["num_embeddings"], node), self.dim_arg(b["embedding_dim"], node)
            a.update(num_embeddings=n, embedding_dim=d, padding_idx=b.get("padding_idx"),
                     weight=Tensor((n, d), self.param_dtype(b, node)))
        elif kind == "PReLU":
            b = self.bind_args(kind, args, kwargs, ("num_parameters", "init", "dtype"), node)
            n = self.dim_arg(b.get("num_parameters", 1), node)
            a.update(num_parameters=n, weight=Tensor((n,), self.param_dtype(b, node)))
        elif kind == "MultiheadAttention":
            self.attention_layer(obj, args, kwargs, node)
        elif kind in ("RNN", "LSTM", "GRU"):
            self.recurrent_layer(obj, kind, args, kwargs, node)
        elif kind in _PLAIN_LAYERS:
            a.update(kwargs)  # keyword configuration (`Hardtanh(min_val=..)`) reads back
            a["_args"] = tuple(args)
        else:
            self.fail(f"layer `torch.nn.{kind}` is not supported", node)
        return obj

    def dim_arg(self, v: Any, node: ast.AST) -> int:
        n = self.as_int(v, "a layer size", node)
        if n < 0 or n >= 1 << 40:
            self.fail(f"layer size {n} out of range", node)
        return n

    def param_dtype(self, bound: dict[str, Any], node: ast.AST) -> str:
        dt = bound.get("dtype")
        return "float32" if dt is None else self.as_dtype(dt, node)

    def conv_layer(self, obj: ModuleObject, kind: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        n = int(kind[-2])
        transposed = kind.startswith("ConvTranspose")
        params: tuple[str, ...] = ("in_channels", "out_channels", "kernel_size", "stride", "padding")
        params += ("output_padding", "groups", "bias", "dilation") if transposed else ("dilation", "groups", "bias")
        b = self.bind_args(kind, args, kwargs, params + ("padding_mode", "dtype"), node, 3)
        cin, cout = self.dim_arg(b["in_channels"], node), self.dim_arg(b["out_channels"], node)
        groups = self.dim_arg(b.get("groups", 1), node)
        if groups == 0 or cin % groups or cout % groups:
            self.fail(f"{kind}: {cin} input and {cout} output channels do not split into {groups} groups", node)
        k = tuple(self.dim_arg(x, node) for x in tuple_n(b["kernel_size"], n, "kernel_size", self, node))
        padding = b.get("padding", 0)
        dt = self.param_dtype(b, node)
        weight = (cin, cout // groups) + k if transposed else (cout, cin // groups) + k
        obj.attrs.update(
            in_channels=cin, out_channels=cout, kernel_size=k, groups=groups, transposed=transposed,
            stride=tuple_n(b.get("stride", 1), n, "stride", self, node),
            padding=padding if isinstance(padding, str) else tuple_n(padding, n, "padding", self, node),
            dilation=tuple_n(b.get("dilation", 1), n, "dilation", self, node),
            output_padding=tuple_n(b.get("output_padding", 0), n, "output_padding", self, node),
            padding_mode=b.get("padding_mode", "zeros"),
            weight=Tensor(weight, dt), bias=Tensor((cout,), dt) if b.get("bias", True) else None)

    def attention_layer(self, obj: ModuleObject, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        b = self.bind_args("MultiheadAttention", args, kwargs, (
            "embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim",
            "batch_first", "dtype"), node, 2)
        e, h = self.dim_arg(b["embed_dim"], node), self.dim_arg(b["num_heads"], node)
        if h == 0 or e % h:
            self.fail(f"MultiheadAttention: embed_dim {e} is not divisible by num_heads {h}", node)
        kdim = e if b.get("kdim") is None else self.dim_arg(b["kdim"], node)
        vdim = e if b.get("vdim") is None else self.dim_arg(b["vdim"], node)
        dt = self.param_dtype(b, node)
        bias = bool(b.get("bias", True))
        same = kdim == e and vdim == e
        out_proj = ModuleObject("Linear", {"in_features": e, "out_features": e, "weight": Tensor((e, e), dt),
                                           "bias": Tensor((e,), dt) if bias else None})
        obj.attrs.update(
            embed_dim=e, num_heads=h, head_dim=e // h, kdim=kdim, vdim=vdim, dropout=b.get("dropout", 0.0),
            batch_first=bool(b.get("batch_first", False)), _qkv_same_embed_dim=same,
            in_proj_weight=Tensor((3 * e, e), dt) if same else None,
            q_proj_weight=None if same else Tensor((e, e), dt),
            k_proj_weight=None if same else Tensor((e, kdim), dt),
            v_proj_weight=None if same else Tensor((e, vdim), dt),
            in_proj_bias=Tensor((3 * e,), dt) if bias else None, out_proj=out_proj,
            bias_k=Tensor((1, 1, e), dt) if b.get("add_bias_kv") else None,
            bias_v=Tensor((1, 1, e), dt) if b.get("add_bias_kv") else None)

    def recurrent_layer(self, obj: ModuleObject, kind: str, args: list[Any], kwargs: dict[str, Any],
                        node: ast.AST) -> None:
        params = ("input_size", "hidden_size", "num_layers") + (("nonlinearity",) if kind == "RNN" else ())
        params += ("bias", "batch_first", "dropout", "bidirectional") + (("proj_size",) if kind == "LSTM" else ())
        b = self.bind_args(kind, args, kwargs, params + ("dtype",), node, 2)
        size, hidden = self.dim_arg(b["input_size"], node), self.dim_arg(b["hidden_size"], node)
        layers = self.dim_arg(b.get("num_layers", 1), node)
        if b.get("proj_size", 0):
            self.fail("LSTM with proj_size is not supported", node)
        gates = {"RNN": 1, "LSTM": 4, "GRU": 3}[kind] * hidden
        dirs = 2 if b.get("bidirectional", False) else 1
        dt = self.param_dtype(b, node)
        a = obj.attrs
        a.update(input_size=size, hidden_size=hidden, num_layers=layers, bias=bool(b.get("bias", True)),
                 batch_first=bool(b.get("batch_first", False)), dropout=b.get("dropout", 0.0),
                 bidirectional=dirs == 2, proj_size=0)
        for layer in range(layers):
            width = size if layer == 0 else hidden * dirs
            for suffix in ("", "_reverse")[:dirs]:
                a[f"weight_ih_l{layer}{suffix}"] = Tensor((gates, width), dt)
                a[f"weight_hh_l{layer}{suffix}"] = Tensor((gates, hidden), dt)
                if a["bias"]:
                    a[f"bias_ih_l{layer}{suffix}"] = Tensor((gates,), dt)
                    a[f"bias_hh_l{layer}{suffix}"] = Tensor((gates,), dt)

    def layer_forward(self, obj: ModuleObject, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if obj.cls is not None:
            fn = self.find_method(obj, "forward")
            if fn is None:
                self.fail(f"`{obj.kind}` has no `forward`", node)
            return self.run(fn, [obj, *args], kwargs, node)
        if len(args) != 1 or kwargs or not isinstance(args[0], Tensor):
            self.fail(f"calling the `{obj.kind}` layer with these arguments is not evaluated", node)
        x = args[0]
        if obj.kind in _SHAPE_KEEPING:
            return x
        if obj.kind == "Linear":
            if not x.shape or x.shape[-1] != obj.attrs["in_features"]:
                self.fail(f"`Linear({obj.attrs['in_features']}, ...)` called on {describe(x)}", node)
            return Tensor(x.shape[:-1] + (obj.attrs["out_features"],), x.dtype)
        self.fail(f"calling the `{obj.kind}` layer is not evaluated", node)
