"""Which kernel source of an op folder the build compiles for a chip: its OpDef's `opFile.value`.

An ops-repository op folder may hold one kernel entry per architecture, all of the op's name: ops-nn
ascend_quant_v2 has op_kernel/ascend_quant_v2.cpp (910B) and op_kernel/ascend_quant_v2_apt.cpp (950, a kernel
template the template tiling key instantiates). The OpDef says which file a SoC's build compiles:

    config_950.DynamicCompileStaticFlag(true).ExtendCfgInfo("opFile.value", "ascend_quant_v2_apt");
    this->AICore().AddConfig("ascend950", config_950);

A config without it compiles the op's default file, the op type in snake case.
"""

from __future__ import annotations

import re
from typing import Any

from frontend.opdef import COMMENT_RE, OP_ADD_RE, host_texts

_ADD_CONFIG = re.compile(r'AddConfig\s*\(\s*"([A-Za-z0-9_]+)"\s*(?:,\s*([A-Za-z_]\w*)\s*)?\)')


def _op_file(text: str, config: str) -> str | None:
    """The opFile.value a statement on `config` sets (`config.X().ExtendCfgInfo("opFile.value", "f")`)."""
    pattern = re.compile(rf'\b{re.escape(config)}\s*\.[^;]*?ExtendCfgInfo\s*\(\s*"opFile\.value"\s*,\s*"([\w.]+)"')
    found = pattern.search(text)
    return found.group(1) if found else None


def kernel_file(bundle: Any, arch: int) -> str | None:
    """The stem of the kernel source the OpDef builds for architecture `arch` (a `npu_arch`), when an AddConfig
    of a SoC of that architecture names its config and that config sets opFile.value; else None (the default
    file, or no OpDef in reach)."""
    from ascendir.chips import op_def_archs

    for raw in host_texts(bundle):
        text = COMMENT_RE.sub(" ", raw)
        for soc, config in _ADD_CONFIG.findall(text):
            if config and arch in op_def_archs(f'AddConfig("{soc}")'):
                name = _op_file(text, config)
                if name is not None:
                    return name
    return None


def op_type(bundle: Any) -> str:
    """The op type: the op json's, else the one op the OpDef sources OP_ADD; "" when neither says."""
    if bundle.op_name:
        return str(bundle.op_name)
    added = {name for text in host_texts(bundle) for name in OP_ADD_RE.findall(COMMENT_RE.sub(" ", text))}
    return added.pop() if len(added) == 1 else ""
