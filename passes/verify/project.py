"""Project consistency (ASC8xx): the files of an op project or benchmark answer must agree with each other.

The op description (json) names the operator; the build derives the kernel entry symbol and the tiling
header's file name from it, the host registers a tiling struct for it, the kernel reads that struct's
fields, and the Python binding calls the generated `aclnn<Op>` entry. Each mismatch is a late failure in
the vendor build (or a silent wrong value at run time); all of them are visible in the sources.

The rules live in modules of their own; this module imports them (registering them in RULES) and re-exports
every public name it had, the shared project facts included (coverage, tiling, binding, host_code and other
rule modules import them from here):

- project_facts.py: what the rules share (also host_code.py and the other families): the program's units,
  nodes and calls per role, the op's name and description (op_info), tiling structs, includes, cached values
  per run, findings reported once;
- project_names.py: names the build derives from the op: the kernel entry (ASC801), the tiling registration
  (ASC802), the DTYPE_<NAME> macros (ASC806), the tiling header's file name (ASC810);
- project_tiling.py: the tiling struct between host and kernel: fields not declared (ASC803) or never set
  (ASC804), tiling keys without a kernel branch (ASC805);
- project_binding.py: the Python binding (MultiKernelBench answers): the aclnn op name (ASC807) and
  EXEC_NPU_CMD's arguments (ASC808 ASC809 ASC812).
"""

from __future__ import annotations

# Defined in the modules this one was split into; other modules import them from here. Imported
# in the order of the rules' codes, the shared facts first: importing a rule module registers its rules.
from passes.verify.project_facts import (
    OpInfo as OpInfo,
    T as T,
    cached as cached,
    calls as calls,
    const_int as const_int,
    functions as functions,
    includes as includes,
    legacy_tiling_defs as legacy_tiling_defs,
    name_of as name_of,
    nodes as nodes,
    nodes_per_unit as nodes_per_unit,
    op_info as op_info,
    parsed_units as parsed_units,
    report_once as report_once,
    snake as snake,
    snake_variants as snake_variants,
    span as span,
    tiling_structs as tiling_structs,
    units as units,
)
from passes.verify.project_names import (
    dtype_macro_unknown as dtype_macro_unknown,
    kernel_entry_name as kernel_entry_name,
    tiling_header_name as tiling_header_name,
    tiling_registration as tiling_registration,
)
from passes.verify.project_tiling import (
    class_members as class_members,
    tiling_field_never_set as tiling_field_never_set,
    tiling_field_undeclared as tiling_field_undeclared,
    tiling_key_without_branch as tiling_key_without_branch,
)
from passes.verify.project_binding import (
    binding_op_name as binding_op_name,
    exec_npu_cmd_container as exec_npu_cmd_container,
    exec_npu_cmd_float_attr as exec_npu_cmd_float_attr,
    exec_npu_cmd_temporary as exec_npu_cmd_temporary,
)
