"""Reference for one_hot: y[..., c] = (c == indices[...])."""
import numpy as np


def make_inputs(case, rng):
    depth = case["attrs"]["depth"]
    return {"indices": rng.integers(0, depth, size=case["shapes"]["indices"]).astype(np.int32)}


def reference(inputs, attrs):
    idx = inputs["indices"]
    return {"y": (idx[..., None] == np.arange(attrs["depth"])).astype(np.int32)}
