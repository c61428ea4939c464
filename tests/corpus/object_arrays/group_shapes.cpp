// An array of 24 small objects (more than the 16 modelled one object per element), filled and read with a
// run-time index, as catlass's grouped GEMMs hold one layout per group (`params.layoutAList[groupIdx]`).
// sizes[0] is the count of groups given; sizes[1 + 2g] and sizes[2 + 2g] are group g's rows and columns. Each
// group not given keeps the default shape 1 x 2. out[g] = rows * cols + cols of group g's shape.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t GROUPS = 24;

struct Shape {
    __aicore__ inline Shape(uint32_t rows = 1, uint32_t cols = 2) { dims[0] = rows; dims[1] = cols; }
    __aicore__ inline uint32_t Rows() const { return dims[0]; }
    __aicore__ inline uint32_t Cols() const { return dims[1]; }
    uint32_t dims[2];
};

struct Groups {
    uint32_t count;
    Shape shapes[GROUPS];
};

__aicore__ inline uint32_t Area(Shape s) { return s.Rows() * s.Cols(); }

extern "C" __global__ __aicore__ void group_shapes(GM_ADDR sizes, GM_ADDR out)
{
    __gm__ uint32_t *in = (__gm__ uint32_t *)sizes;
    __gm__ uint32_t *res = (__gm__ uint32_t *)out;
    Groups groups;
    groups.count = in[0];
    for (uint32_t g = 0; g < groups.count; ++g) {
        groups.shapes[g] = Shape{in[1 + 2 * g], in[2 + 2 * g]};
    }
    for (uint32_t g = 0; g < GROUPS; ++g) {
        Shape s = groups.shapes[g];
        res[g] = Area(s) + groups.shapes[g].Cols();
    }
}
