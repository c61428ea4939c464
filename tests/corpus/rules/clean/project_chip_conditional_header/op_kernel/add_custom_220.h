/**
 * @file add_custom_220.h
 * @brief The add of one tile on 220 chips.
 */
#ifndef ADD_CUSTOM_220_H
#define ADD_CUSTOM_220_H
#include "kernel_operator.h"

template <typename T>
class TileAdder {
public:
    __aicore__ static inline void Run(const AscendC::LocalTensor<T>& z, const AscendC::LocalTensor<T>& x,
                                      const AscendC::LocalTensor<T>& y, uint32_t len)
    {
        AscendC::Add(z, x, y, len);
    }
};
#endif
