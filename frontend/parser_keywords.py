"""The parser's keywords: C++'s, AscendC's qualifiers, the vendor's macros that the grammar knows, and C++'s
alternative operator spellings, each with the terminal the post-lexer gives it.
"""

from __future__ import annotations

from typing import Iterable


KEYWORD_GROUPS: dict[str, Iterable[str]] = {
    "BUILTIN_TYPE": "bool char short int long float double signed unsigned auto wchar_t char16_t char32_t __fp16 __int128".split(),
    "STORAGE": ("static inline register thread_local explicit consteval constinit __inline__ __forceinline__ "
                "__kfc_workspace__").split(),
    "CV": "const volatile __restrict__ __restrict".split(),
    "ADDRESS_SPACE": "__gm__ __ubuf__ __ca__ __cb__ __cc__ __cbuf__ __fbuf__ __ssbuf__ __biasbuf__".split(),
    "FN_SPECIFIER": ("__global__ __aicore__ __vector__ __cube__ __host__ __device__ __simt_vf__ __simd_vf__ "
                     "__simd_callee__ __simt_callee__ __host_aicore__ __sync_alias__ __noinline__ __always_inline__ "
                     "__aicore_host__ __inline_host__ __aicpu__").split(),
    # Qualifiers that take arguments: __mix__(1, 2), __schedmode__(1), __launch_bounds__(N).
    "MIX": "__mix__ __schedmode__ __launch_bounds__ __cluster_dims__".split(),
    "ACCESS": "public private protected".split(),
    "NULLPTR": ["nullptr", "NULL"],
    "BOOL": ["true", "false"],
    "CAST_KEYWORD": "static_cast reinterpret_cast const_cast dynamic_cast".split(),
}
_SINGLE_KEYWORDS = (
    "namespace extern template typename class struct union using typedef static_assert enum virtual final "
    "override friend default delete noexcept operator if else constexpr for while do switch case break "
    "continue return goto throw sizeof alignof alignas new this mutable decltype void try catch"
).split()
_VENDOR_KEYWORDS = {
    "__attribute__": "ATTRIBUTE",
    "BEGIN_TILING_DATA_DEF": "BEGIN_TILING_DATA_DEF",
    "END_TILING_DATA_DEF": "END_TILING_DATA_DEF",
    "TILING_DATA_FIELD_DEF": "TILING_DATA_FIELD_DEF",
    "TILING_DATA_FIELD_DEF_ARR": "TILING_DATA_FIELD_DEF_ARR",
    "TILING_DATA_FIELD_DEF_STRUCT": "TILING_DATA_FIELD_DEF_STRUCT",
    "REGISTER_TILING_DATA_CLASS": "REGISTER_TILING_DATA_CLASS",
}

# C++'s alternative tokens: `if (a and not b)` is `if (a && !b)`.
_ALTERNATIVE_TOKENS = {
    "and": "ANDAND", "or": "OROR", "not": "BANG", "not_eq": "NE", "bitand": "AMP", "bitor": "BAR", "xor": "CARET",
    "compl": "TILDE", "and_eq": "COMPOUND_ASSIGN", "or_eq": "COMPOUND_ASSIGN", "xor_eq": "COMPOUND_ASSIGN",
}

KEYWORDS: dict[str, str] = {w: group for group, words in KEYWORD_GROUPS.items() for w in words}
KEYWORDS.update({w: w.upper() for w in _SINGLE_KEYWORDS})
KEYWORDS.update(_VENDOR_KEYWORDS)
KEYWORDS.update(_ALTERNATIVE_TOKENS)
