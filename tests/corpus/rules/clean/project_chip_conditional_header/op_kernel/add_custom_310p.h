/**
 * @file add_custom_310p.h
 * @brief The 310P helpers: bfloat16 is computed there through its 16-bit bits, code a 220 compile never sees
 *        (this header is included only under __CCE_AICORE__ == 200).
 */
#ifndef ADD_CUSTOM_310P_H
#define ADD_CUSTOM_310P_H
#include "kernel_operator.h"

// the 220 header defines the same class: the kernel compiled for either chip sees one of them
template <typename T>
class TileAdder {
public:
    __aicore__ static inline void Run(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x,
                                      const AscendC::LocalTensor<T>& y, uint32_t len)
    {
        AscendC::Add(z, x, y, len);
        AscendC::Adds(z.template ReinterpretCast<bfloat16_t>(), z.template ReinterpretCast<bfloat16_t>(),
                      static_cast<bfloat16_t>(0), len);
    }
};
#endif
