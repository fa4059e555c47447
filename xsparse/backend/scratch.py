"""The memory of `SCRATCH` buffers (`codegen_utils.emitter`): a buffer a
kernel needs during one call only, e.g. the rows it saves to put back after
a failed check (`fused_checks.restore_outputs_on_failure`).

A fresh `malloc` of a few megabytes is memory the kernel then faults in page
by page on every call (about 1 us per 4 KiB page: for SpMV's y of 400k
doubles, a tenth of the kernel). So each module keeps the last block given
back in a slot of its own and hands it out again when it is large enough.
The slot is taken and refilled with an atomic exchange: two calls at once
(from two Python threads) never share a block; the second gets a new one.
A block lives while its module does, at most the largest size asked for.
A size whose header does not fit in 64 bits, or a failed `malloc`, gives
null, which the caller checks (`allocation_failures`).
"""

from __future__ import annotations

import re

from xsparse.transforms.runtime_symbols import SCRATCH_GIVE, SCRATCH_TAKE

_HEADER = 64
"""Bytes before a block's memory: its capacity (and the alignment kept)."""

SCRATCH_IR = f"""
@xsparse.scratch.slot = internal global ptr null

define internal ptr @{SCRATCH_TAKE}(i64 %bytes) {{
entry:
  %kept = atomicrmw xchg ptr @xsparse.scratch.slot, ptr null acq_rel
  %none = icmp eq ptr %kept, null
  br i1 %none, label %fresh, label %check
check:
  %capacity = load i64, ptr %kept
  %fits = icmp uge i64 %capacity, %bytes
  br i1 %fits, label %reuse, label %drop
reuse:
  %memory = getelementptr i8, ptr %kept, i64 {_HEADER}
  ret ptr %memory
drop:
  call void @free(ptr %kept)
  br label %fresh
fresh:
  %wrapped = icmp ugt i64 %bytes, {(1 << 64) - 1 - _HEADER}
  br i1 %wrapped, label %failed, label %allocate
allocate:
  %total = add i64 %bytes, {_HEADER}
  %block = call ptr @malloc(i64 %total)
  %null = icmp eq ptr %block, null
  br i1 %null, label %failed, label %filled
filled:
  store i64 %bytes, ptr %block
  %new = getelementptr i8, ptr %block, i64 {_HEADER}
  ret ptr %new
failed:
  ret ptr null
}}

define internal void @{SCRATCH_GIVE}(ptr %memory) {{
entry:
  %block = getelementptr i8, ptr %memory, i64 -{_HEADER}
  %previous = atomicrmw xchg ptr @xsparse.scratch.slot, ptr %block acq_rel
  %none = icmp eq ptr %previous, null
  br i1 %none, label %done, label %release
release:
  call void @free(ptr %previous)
  br label %done
done:
  ret void
}}
"""


def scratch_ir(declared_in: str) -> str:
    """The definitions of the scratch functions where `declared_in` (a
    module's LLVM IR) calls them, with the libc functions they need that it
    does not declare; else nothing."""
    if f"@{SCRATCH_TAKE}(" not in declared_in:
        return ""
    needed = [
        line
        for name, line in (
            ("malloc", "declare ptr @malloc(i64)"),
            ("free", "declare void @free(ptr)"),
        )
        if not re.search(rf"^declare [^\n]*@{name}\(", declared_in, re.MULTILINE)
    ]
    return SCRATCH_IR + "\n".join(needed) + "\n"
