"""API misuse (ASC5xx): calls the vendor compiler or the CPU-debug checks reject, or that misbehave.

The rules live in modules of their own; this module imports them (registering them in RULES, the modules in
the order of their first rule's code) and re-exports every rule's check:

- api_misuse_operands.py: operands a vector call cannot take: a repeat count over 255 (ASC501), a continuous
  mask out of range (ASC505), a tensor in a TPosition the API cannot reach (ASC506);
- api_misuse_types.py: element types and casts: element types an API does not support (ASC502), a scalar
  argument of another type than the tensors' (ASC503), Cast routes and round modes (ASC504), and the scalar C
  rules of aicore functions (float <-> unsigned ASC507, double ASC508);
- api_misuse_namespace.py: namespace AscendC: names used without `AscendC::` (ASC509), the global EVENT_IDn
  written with it (ASC510);
- api_misuse_objects.py: objects and what calls leave in them: a member object changed in a const method
  (ASC511), the source of an in-place reduction read again (ASC512), a member a parameter struct lacks
  (ASC513), an API whose body the chip compiles out (ASC514);

and what they share:

- api_misuse_calls.py: the IR side: API-call ops with their catalog entry and overload (CatalogCall,
  catalog_calls), type bindings, element type names, an op's location and kernel;
- api_misuse_index.py: the source side: one walk of the program's syntax trees (source_index).
"""

from __future__ import annotations

# The rules' modules, in the order of their first rule's code: importing them registers the rules in RULES.
from passes.verify.api_misuse_operands import (
    mask_out_of_range as mask_out_of_range,
    repeat_times_over_255 as repeat_times_over_255,
    wrong_tposition as wrong_tposition,
)
from passes.verify.api_misuse_types import (
    double_in_device_code as double_in_device_code,
    float_unsigned_conversion as float_unsigned_conversion,
    illegal_cast as illegal_cast,
    scalar_type_mismatch as scalar_type_mismatch,
    unsupported_element_type as unsupported_element_type,
)
from passes.verify.api_misuse_namespace import (
    global_enumerator_qualified as global_enumerator_qualified,
    missing_ascendc_qualification as missing_ascendc_qualification,
)
from passes.verify.api_misuse_objects import (
    api_empty_on_chip as api_empty_on_chip,
    mutating_call_in_const_method as mutating_call_in_const_method,
    reduce_in_place_source_reread as reduce_in_place_source_reread,
    unknown_struct_member as unknown_struct_member,
)
