"""Synchronisation (ASC7xx): SetFlag/WaitFlag pairing, illegal barriers and events, scalar-read hazards.

The pairing rules run an abstract interpretation of each kernel body over the scf regions: the state maps
each (HardEvent, event id) to the set of values its hardware flag may hold (0 or 1) at that point. `scf.if`
joins its branches; loops iterate to a fixpoint (0 or more iterations, or exactly N when the trip count is a
constant). A finding is reported only when it holds in every state that reaches the op: a WaitFlag whose
flag is 0 on every path hangs, a SetFlag whose flag is already 1 on every path is a double set. A loop body
is also checked in its first iteration's state, which runs whenever the body runs at all (a WaitFlag at the
top of a loop with no pre-set before the loop hangs at once, even though later iterations would be fine).

Events whose id is not a compile-time constant (`FetchEventID`, `ping ? EVENT_ID0 : EVENT_ID1`) cannot be
told apart by id: all flags of such a HardEvent are counted instead (how many may be set at a point), which
still shows a WaitFlag with no flag of its event set on any path (ASC701) and flags left set at the end
(ASC702), but not a double set.

The rules live in modules of their own; this module imports them (registering them in RULES in the order they
had here) and re-exports every public name:

- sync_ir.py: an API call's template argument and receiver, an op's kernel and source order;
- sync_flags.py: the flag interpreter (FlagInterpreter) and the facts it needs (flag keys, trip counts);
- sync_flag_rules.py: the pairing rules on its results (ASC701 ASC702 ASC703) and the barrier and event-id
  rules (ASC704 ASC705 ASC706);
- sync_hazards.py: the scalar-read hazard interpreter (HazardInterpreter) and its rule (ASC707);
- sync_reload.py: UB regions, the reload-before-writeback interpreter (ReloadInterpreter) and its rule (ASC708).
"""

from __future__ import annotations

# Defined in the modules this one was split into; other modules import them from here.
from passes.verify.sync_flag_rules import (
    event_id_out_of_range as event_id_out_of_range,
    flag_within_one_pipe as flag_within_one_pipe,
    pipe_barrier_scalar as pipe_barrier_scalar,
    setflag_never_waited as setflag_never_waited,
    setflag_twice as setflag_twice,
    waitflag_never_set as waitflag_never_set,
)
from passes.verify.sync_flags import (
    ANY_ID as ANY_ID,
    FLAG_SET as FLAG_SET,
    Flag as Flag,
    FlagFinding as FlagFinding,
    FlagInterpreter as FlagInterpreter,
    Key as Key,
    MAX_COUNT as MAX_COUNT,
    State as State,
    flag_key as flag_key,
    flag_ops as flag_ops,
    kernel_analysis as kernel_analysis,
    trip_count as trip_count,
)
from passes.verify.sync_hazards import (
    HazardInterpreter as HazardInterpreter,
    HazardState as HazardState,
    Write as Write,
    mark_seen as mark_seen,
    meet_states as meet_states,
    scalar_read_without_flag as scalar_read_without_flag,
)
from passes.verify.sync_ir import (
    api_template as api_template,
    has_receiver as has_receiver,
    kernel_of as kernel_of,
    kernels_to_check as kernels_to_check,
    order_key as order_key,
)
from passes.verify.sync_reload import (
    Reload as Reload,
    ReloadInterpreter as ReloadInterpreter,
    Terms as Terms,
    UbRegion as UbRegion,
    ub_reload_before_writeback as ub_reload_before_writeback,
)
