"""The functions compiled code calls and the backend's runtime defines
(`xsparse.backend.jit` binds them, `backend.threads` and `backend.scratch`
implement them): one list of names both sides import, without loading the
lowerings that emit the calls."""

SCRATCH_TAKE = "xsparse_scratch_take"
"""The runtime function a `SCRATCH` allocation calls: `ptr (i64 bytes)`."""
SCRATCH_GIVE = "xsparse_scratch_give"
"""The runtime function a `SCRATCH` deallocation calls: `void (ptr)`."""

PARALLEL_FOR = "xsparse_parallel_for"
"""The thread runtime's entry, which a parallel loop becomes a call of: its
first operand is the body's address, its second the context, whose first
field a failed chunk sets."""
MAX_CHUNKS = 256
"""The most chunks the runtime cuts a loop into (the partial results of a
loop with reductions have room for that many)."""

ALLOCATION_FAILED = "xsparse_allocation_failed"
"""`void (i64 bytes, ptr function_name)`: report an allocation that failed."""
FAILED = "xsparse_failed"
"""`i1 ()`: whether this thread's failure flag is set."""
SET_FAILED = "xsparse_set_failed"
"""`void (i1)`: set or clear this thread's failure flag."""
FORGET = "xsparse_owned_forget"
"""`void (ptr slots, i64 n, ptr block)`: null the slots holding `block`."""
RELEASE = "xsparse_owned_release"
"""`void (ptr slots, i64 n)`: free what the slots hold."""
SIZE_OVERFLOW = (1 << 64) - 1
"""The byte size an allocation asks for when its size overflows 64 bits."""

RUNTIME_ERROR = "xsparse_runtime_error"
"""The runtime function that compiled code calls with the address of a
NUL-terminated message when its run-time data is invalid."""

NEW_TENSOR = "xsparse_new_tensor"
"""`(!llvm.ptr file, index type_text) -> index handle`: read a file."""
TENSOR_SIZE = "xsparse_tensor_size"
"""`(index handle, index k) -> index`: the length of storage field k (a level size)."""
TENSOR_COPY = "xsparse_tensor_copy"
"""`(index handle, index k, index address)`: copy storage field k to `address`."""
TENSOR_RELEASE = "xsparse_tensor_release"
"""`(index handle)`: forget a tensor read by `xsparse_new_tensor`."""
OUT_BEGIN = "xsparse_out_begin"
"""`(index type_text) -> index handle`: start a tensor to write."""
OUT_FIELD = "xsparse_out_field"
"""`(index handle, index k, index address, index length)`: storage field k."""
OUT_END = "xsparse_out_end"
"""`(index handle, !llvm.ptr file)`: write the tensor (stdout for "")."""
