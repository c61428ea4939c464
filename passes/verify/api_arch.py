"""Calls of APIs the target architecture does not have (ASC516).

The catalog records, for the APIs that exist on some architectures only, which ones (`archs`): the
region-proposal sort family (ProposalConcat, ProposalExtract, RpSort16, MrgSort4) exists on the Atlas inference
(310P, arch 2002) and training (910, arch 1001) parts; the A2/A3 devkit (2201) declares the functions but their
bodies report "is not supported on current device" and abort. The 910B kernels sort (score, index) pairs with
Sort32 / MrgSort / Sort instead. A form of an API may exist on fewer architectures than the API (the overload's
`archs`): Sort with a SortConfig template argument is the 950's (arch 3510) only.
"""

from __future__ import annotations

from ascendir.catalog.model import Api
from passes.verify.ir import api_calls_of
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC516", "api-not-on-chip", "api",
    summary="A call of an API that the target architecture does not have (the catalog lists the architectures "
            "it exists on): the region-proposal sorts ProposalConcat, ProposalExtract, RpSort16 and MrgSort4 on "
            "910B, for example.",
    why="The vendor headers declare these functions for every chip, so the kernel compiles; on an architecture "
        "without the instruction the implementation reports '<API> is not supported on current device' and "
        "aborts the kernel (the A2/A3 devkit's dav_c220 proposal implementation). Such code needs either the "
        "chip it was written for or the target's own instructions.",
    example="ProposalConcat(proposals, scores, 16, 4);   // 910B: no region proposals\n"
            "RpSort16(proposals, proposals, 16);",
    instead="Sort<float, true>(sorted, scores, indices, tmp, 8);   // 910B: (score, index) pairs, 32 per repeat",
    # an architecture the catalog does not describe (the 950, 3510) has its own implementations of what the
    # catalog's `archs` lists leave out: ops-math's arch35 kernels call DataCopyPad, which the 3510 devkit provides
    catalogued_archs_only=True,
)
def api_not_on_chip(ctx: CheckContext) -> None:
    arch = ctx.chip.npu_arch
    seen: dict[tuple[str, str], Api | None] = {}
    for op in api_calls_of(ctx):
        key = (op.api.data, op.FAMILY)
        if key not in seen:
            seen[key] = next((a for a in ctx.catalog.apis if a.name == key[0] and a.family == key[1]), None)
        api = seen[key]
        if api is None:
            continue
        if api.archs is not None and arch not in api.archs:
            have = ", ".join(str(a) for a in sorted(api.archs))
            ctx.report(op, f"{key[0]} does not exist on {ctx.chip.name} (arch {arch}); the catalog gives it to "
                           f"arch {have} only, and the vendor's implementation for this chip aborts ('not "
                           f"supported on current device')")
            continue
        overload = api.overload(op.overload.data)
        form_archs = overload.archs if overload is not None else None
        if overload is not None and form_archs is not None and arch not in form_archs:
            # a form of an API the chip has (Sort's SortConfig forms): this chip's headers do not declare it, so
            # the call does not compile there
            have = ", ".join(str(a) for a in sorted(form_archs))
            ctx.report(op, f"this form of {key[0]} ({overload.signature}) does not exist on {ctx.chip.name} "
                           f"(arch {arch}); the catalog gives it to arch {have} only")
