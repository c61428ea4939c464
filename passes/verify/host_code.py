"""Host code (ASC9xx): the gert / platform_ascendc API as the host TilingFunc and InferShape use it.

These are the most frequent compile errors of host code in real logs: `GetInputShape` returns a
`const gert::StorageShape*` in a TilingContext but a `const gert::Shape*` in an InferShapeContext, the
two classes have different members, and indices must name declared inputs. The checks follow the static
types of the host expressions through local variables and helper parameters; what they cannot type they
leave alone.

The rules live in modules of their own; this module imports them (registering ASC901-ASC906 in RULES in the
order they had here) and re-exports every public name:

- host_gert_types.py: the static gert types of host expressions (HType, what each context method returns, the
  typer that follows them through locals and parameters);
- host_gert_rules.py: the gert API rules on those types: a StorageShape taken as a Shape (ASC901), a member
  that does not exist or `.` on a pointer (ASC902), an input/output/attribute index out of range (ASC903);
- host_setup_rules.py: what the host file must provide besides gert calls: the header of platform_ascendc /
  AscendC (ASC904), a workspace size when the kernel uses one (ASC905);
- host_block_dim.py: SetBlockDim missing from the tiling function or a registered tiling template (ASC906);
- host_block_dim_paths.py: the path analysis it runs (BlockDimPaths: does every success return follow a
  SetBlockDim, through helpers and the classes built from the context).
"""

from __future__ import annotations

# The public names host_code.py had, importable from it as before. The imports are in rule order, not
# alphabetical: importing a rule module registers its rules, and RULES keeps ASC901-ASC906 in the order they
# had when they were all here.
from passes.verify.host_gert_types import HType as HType
from passes.verify.host_gert_rules import (  # ASC901-ASC903
    host_index_out_of_range as host_index_out_of_range,
    host_no_such_member as host_no_such_member,
    host_shape_type as host_shape_type,
)
from passes.verify.host_setup_rules import (  # ASC904, ASC905
    host_missing_include as host_missing_include,
    workspace_not_set as workspace_not_set,
)
from passes.verify.host_block_dim import set_block_dim_missing as set_block_dim_missing  # ASC906
