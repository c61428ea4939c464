r"""Reference for lerp: y_i = \mathrm{start}_i + w \, (\mathrm{end}_i - \mathrm{start}_i)."""
import numpy as np


def reference(inputs, attrs):
    start = inputs["start"].astype(np.float64)
    end = inputs["end"].astype(np.float64)
    return {"y": (start + attrs["weight"] * (end - start)).astype(inputs["start"].dtype)}
