/**
 * @file add_elem.h
 * @brief The element type of the add: DTYPE_ELEM, which the including source defines.
 */
#ifndef ADD_ELEM_H
#define ADD_ELEM_H
#include "kernel_operator.h"

using ElemType = DTYPE_ELEM;
#endif
