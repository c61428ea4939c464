"""Host rules on what the host file must provide besides gert calls: the header that declares
platform_ascendc:: and the host-side AscendC:: tiling helpers (ASC904), and a workspace size when the kernel
uses a workspace (ASC905).
"""

from __future__ import annotations

import os

from frontend import ast as A
from frontend.diagnostics import Note
from passes.verify.host_gert_types import HOST_ROLES
from passes.verify.project import calls, functions, includes, name_of, nodes, report_once, span
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC904", "host-missing-include", "host",
    summary="Host code uses platform_ascendc:: or AscendC:: without the header that declares it.",
    why="The platform_ascendc namespace (PlatformAscendC, CoreMemType) is declared only by "
        "tiling/platform/platform_ascendc.h (or tiling/tiling_api.h, which includes it), and the host-side "
        "AscendC tiling helpers (GetSoftMaxMinTmpSize, GetReduceProdMaxMinTmpSize, ...) by tiling/tiling_api.h; "
        "without them the host build fails with \"'platform_ascendc' has not been declared\".",
    example='#include "register/op_def_registry.h"\n'
            "auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
    instead='#include "register/op_def_registry.h"\n#include "tiling/platform/platform_ascendc.h"',
)
def host_missing_include(ctx: CheckContext) -> None:
    included = [target for target, _ in includes(ctx, *HOST_ROLES)]
    if not any(t.startswith(("register/", "tiling/")) or "op_def_registry" in t for t in included):
        return  # not an op project's host file (a test harness, a snippet): includes unknown
    own: set[str] = set()
    if ctx.program is not None:  # the project's own sources, as files or as an answer's embedded ones
        own = {os.path.basename(str(u.unit.file)) for u in ctx.program.units}
        own |= {os.path.basename(name) for name in ctx.program.bundle.virtual_files}
    if any(not _known_not_to_declare(t, own) for t in included):
        return  # a header whose contents are unknown (ops-nn's op_common/... utilities) may bring them in
    has_api = any(t.endswith("tiling_api.h") for t in included)
    wanted = {"platform_ascendc": has_api or any(t.endswith("platform_ascendc.h") for t in included),
              "AscendC": has_api}
    headers = {"platform_ascendc": "tiling/platform/platform_ascendc.h", "AscendC": "tiling/tiling_api.h"}
    for node in nodes(ctx, "host", "tiling_header"):
        if not (isinstance(node, A.QualifiedName) and len(node.parts) > 1):
            continue
        ns = node.parts[0].name
        if ns in wanted and not wanted[ns]:
            wanted[ns] = True  # once per namespace
            report_once(ctx, span(node), f"'{ns}' is not declared in host code: include \"{headers[ns]}\"")


def _known_not_to_declare(target: str, own: set[str]) -> bool:
    """Whether an include is one whose contents are known here: the standard library, the CANN register/ and
    tiling/ headers (judged by name), or a source of the project itself (checked along with it)."""
    if target.startswith(("register/", "tiling/", "graph/", "exe_graph/")):
        return True
    if "/" not in target and "." not in target:
        return True  # <cmath>, <vector>, ...
    if target in ("stdint.h", "stddef.h", "string.h", "math.h", "stdio.h", "stdlib.h", "assert.h"):
        return True
    return os.path.basename(target) in own


_WORKSPACE_USERS = {"GetUserWorkspace": "GetUserWorkspace", "SetSysWorkspace": "SetSysWorkspace",
                    "REGIST_MATMUL_OBJ": "a Matmul object", "GetSysWorkSpacePtr": "GetSysWorkSpacePtr"}


@rule(
    "ASC905", "workspace-not-set", "host",
    summary="The kernel uses a workspace (GetUserWorkspace, Matmul, SetSysWorkspace) but the host sets none.",
    why="The workspace GM buffer is as large as the host requests with GetWorkspaceSizes(1)[0]; the "
        "high-level Matmul API also needs the library's system workspace (GetLibApiWorkSpaceSize). With "
        "none requested the kernel gets a null or zero-sized workspace: AI Core exception or a hang.",
    example="REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td.cubeTiling);   // host never calls "
            "GetWorkspaceSizes",
    instead="size_t* ws = context->GetWorkspaceSizes(1);\nws[0] = ascendcPlatform.GetLibApiWorkSpaceSize();",
)
def workspace_not_set(ctx: CheckContext) -> None:
    tiling_funcs = [fn for fn in functions(ctx, "host") if any(name_of(p.type) == "TilingContext" for p in fn.params)]
    if not tiling_funcs:
        return
    for node in nodes(ctx, "host"):
        if isinstance(node, A.Member) and node.member in ("GetWorkspaceSizes", "SetWorkspaceSize"):
            return
        if isinstance(node, A.Name) and node.qname.parts[-1].name in ("GetWorkspaceSizes",):
            return
    for call in calls(nodes(ctx, "kernel"), *_WORKSPACE_USERS):
        report_once(ctx, span(call), f"the kernel uses {_WORKSPACE_USERS[call.callee_name or '']} but the host "  # type: ignore[index]
                   "never sets a workspace size",
                   Note("in TilingFunc: context->GetWorkspaceSizes(1)[0] = <bytes> "
                        "(+ GetLibApiWorkSpaceSize() for Matmul)", kind="help"))
        return
