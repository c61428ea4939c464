"""Reference for neg: y = -x."""
import numpy as np


def reference(inputs, attrs):
    x = inputs["x"]
    return {"y": np.negative(x)}
