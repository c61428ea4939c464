"""rand(), srand() and time() of a host program, deterministic: catlass's examples draw values that reach the kernel
on the host (15_gemm's alpha and beta: `low + rand() / RAND_MAX * (high - low)`; 17_gemv_aiv likewise), so a run
needs them, and the same ones each time to compare with a reference.

rand() is the C library's generator as glibc implements it (TYPE_3: an additive feedback generator of degree 31
over 32-bit words, the state seeded by the Park-Miller minimal standard generator; RAND_MAX 2^31 - 1), seeded 1
as a program that never calls srand() is; srand(s) reseeds it (0 counts as 1, as in glibc). So a program drawing
without srand() gets what it gets on Linux with glibc: 1804289383, 846930886, ... time() is the fixed value
HOST_TIME (0), so `srand(time(nullptr))` is srand(0): the same values as no srand at all. The run reports the values
drawn (passes/sim/host_run.py)."""

from __future__ import annotations

RAND_MAX = 2**31 - 1
HOST_TIME = 0  # what time() returns in a host program run here: a fixed moment, for reproducible draws
_DEGREE, _SEPARATION, _DISCARD = 31, 3, 310


class HostRandom:
    """One program's rand() state."""

    def __init__(self, seed: int = 1) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        r = [seed or 1]
        for _ in range(1, _DEGREE):
            # 16807 * r mod (2^31 - 1) on signed 32-bit words, as glibc's srandom_r computes it (Schrage's method)
            prev = r[-1] - (1 << 32) if r[-1] >= 1 << 31 else r[-1]
            hi, lo = int(prev / 127773), prev - int(prev / 127773) * 127773
            word = 16807 * lo - 2836 * hi
            r.append((word + 2147483647 if word < 0 else word) & 0xFFFFFFFF)
        self._state = r
        self._front, self._rear = _SEPARATION, 0  # glibc's fptr and rptr into the circular state
        for _ in range(_DISCARD):  # glibc steps the generator ten times the degree before the first draw
            self._step()

    def _step(self) -> int:
        r = self._state
        r[self._front] = (r[self._front] + r[self._rear]) & 0xFFFFFFFF
        word = r[self._front] >> 1
        self._front, self._rear = (self._front + 1) % _DEGREE, (self._rear + 1) % _DEGREE
        return word

    def rand(self) -> int:
        return self._step()
