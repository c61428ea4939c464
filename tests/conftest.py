"""Shared test setup. Torch (llm tests) must see OMP_NUM_THREADS=1 before it is imported: with two
threads on these 2-core machines small ops run about 100x slower."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
