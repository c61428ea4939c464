// Syntax-error twin of tests/corpus/template_library/operator_templates.cpp: member operator templates, their
// explicit specialisations and explicit operator calls, each broken once.
#include "kernel_operator.h"

struct Params {
    uint32_t length;
};

template <uint32_t RANK>
struct Coord {
    __aicore__ inline uint32_t &operator[](uint32_t i) { return idx[i]; }
    uint32_t idx[RANK];
};

struct CopyKernel {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(Params const &params);

    template <>
    __aicore__ inline void operator()<AscendC::AIC(Params const &params) {}  // expected-error {{expected ')' before identifier 'params'}} [ASC001]

    template <>
    __aicore__ inline void operator()<AscendC::AIV>(Params const &params)
    {
        Coord<2> shape;
        shape.operator[](0 = params.length;  // expected-error {{expected ')' before ';'}} [ASC001]
        shape.operator[(1) = 8;  // expected-error {{unexpected '('}} [ASC001]
    }

    __aicore__ inline void Run(Params const &params)
    {
        this->operator(params);  // expected-error {{expected ')' before identifier 'params'}} [ASC001]
    }
};

extern "C" __global__ __aicore__ void copy_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    Params params{4096};
    CopyKernel op;
    op.template operator()<AscendC::AIV>(params;  // expected-error {{expected ')' before ';'}} [ASC001]
}
