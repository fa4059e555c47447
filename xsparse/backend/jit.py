"""LLVM IR -> native code with llvmlite, cached in memory and on disk.

The module gets the host's triple and datalayout, then runs LLVM's O-level
pipeline (new pass manager) for the host CPU and its features; the object
code is kept in the disk cache (`disk_cache`: `$XSPARSE_CACHE_DIR`, else
`$XDG_CACHE_HOME/xsparse`, else `~/.cache/xsparse`; a private directory,
entries authenticated with the user's key, bounded in size), keyed by a hash
of the IR, the options, the CPU and the llvmlite version, and loaded into an
MCJIT engine. A second `compile` of the same IR in the process is a
dictionary hit; in a new process it skips LLVM's optimizer and code
generator. A damaged entry, or one this user's processes did not write under
this name, is never loaded: it is compiled again and replaced.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import llvmlite
import llvmlite.binding as llvm
from xdsl.dialects.builtin import FunctionType

from xsparse.backend import disk_cache, threads
from xsparse.backend.abi import (
    CHECKED_PREFIX,
    IN_KERNEL_PREFIX,
    PACKED_PREFIX,
    Guard,
    NativeFunction,
    packed_wrapper_ir,
)
from xsparse.backend.float_builtins import float_builtins_ir
from xsparse.backend.runtime import RUNTIME_SYMBOLS, runtime_ir, strip_declarations
from xsparse.backend.runtime_errors import failure_ir
from xsparse.backend.scratch import scratch_ir
from xsparse.logs import COMPILE_LOGGER, log_time
from xsparse.transforms.runtime_symbols import (
    FAILED,
    FORGET,
    RELEASE,
    SCRATCH_GIVE,
    SCRATCH_TAKE,
    SET_FAILED,
)

if TYPE_CHECKING:
    from xsparse.backend.lowering import LoweredModule

_FORMAT_VERSION = "3"  # 3: entries authenticated by an HMAC (disk_cache)
_lock = threading.Lock()
_memory_cache: dict[str, JITModule] = {}
_target_machines: dict[int, llvm.TargetMachine] = {}


def _after_fork_in_child() -> None:
    """A thread of the parent may have been compiling, holding `_lock`: the
    child, which has no such thread, takes a new one. What the lock guards
    is whole (a dictionary's update is atomic), and the target machines are
    as an LLVM call left them (`threads` keeps a fork from coming in the
    middle of one): the child keeps them."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


# Conversion instructions that flush subnormals: `vcvtneps2bf16` (AVX512-BF16,
# AVX-NE-CONVERT) treats a subnormal float as zero and never produces a
# subnormal bf16, where numpy (ml_dtypes) and compiler-rt round them. Turning
# the features off makes LLVM lower `fptrunc float to bfloat` to the bit
# arithmetic of `__truncsfbf2` (float_builtins), exact on every CPU; features
# implying them (AVX10) go with them.
_INEXACT_FEATURES = ("avx512bf16", "avxneconvert")


def exact_features(features: str) -> str:
    """`features` (LLVM's `+a,-b` list) less those whose instructions give
    results that differ from numpy's (`_INEXACT_FEATURES`), turned off last so
    that no earlier feature implies them back."""
    kept = [f for f in features.split(",") if f and f[1:] not in _INEXACT_FEATURES]
    return ",".join(kept + [f"-{name}" for name in _INEXACT_FEATURES])


@functools.cache
def host_features() -> str:
    """The host CPU's features for code generation (`exact_features`)."""
    return exact_features(llvm.get_host_cpu_features().flatten())


@functools.cache
def host_description() -> str:
    """What the object code depends on besides the IR and the options."""
    return "\0".join(
        [
            _FORMAT_VERSION,
            llvmlite.__version__,
            llvm.get_process_triple(),
            llvm.get_host_cpu_name(),
            host_features(),
        ]
    )


def _new_target_machine(opt_level: int) -> llvm.TargetMachine:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=host_features(),
        opt=opt_level,
        codemodel="jitdefault",
    )


def _target_machine(opt_level: int) -> llvm.TargetMachine:
    """The shared target machine of the optimizer (an engine owns its own)."""
    tm = _target_machines.get(opt_level)
    if tm is None:
        tm = _new_target_machine(opt_level)
        _target_machines[opt_level] = tm
    return tm


def _optimize(ir: str, opt_level: int) -> bytes:
    """Parse, verify, set host triple + datalayout, run the O-level pipeline, emit code."""
    tm = _target_machine(opt_level)
    with log_time(COMPILE_LOGGER, "LLVM IR parsed and verified"):
        module = llvm.parse_assembly(ir)
        module.triple = llvm.get_process_triple()
        module.data_layout = str(tm.target_data)
        module.verify()
    if opt_level:
        with log_time(COMPILE_LOGGER, "LLVM O%d pipeline", opt_level):
            options = llvm.create_pipeline_tuning_options(speed_level=opt_level)
            options.loop_vectorization = True
            options.slp_vectorization = True
            builder = llvm.create_pass_builder(tm, options)
            builder.getModulePassManager().run(module, builder)
    with log_time(COMPILE_LOGGER, "object code emitted"):
        return tm.emit_object(module)


class JITModule:
    """Native code of one module; `function(name)` gives a callable."""

    def __init__(
        self,
        key: str,
        obj: bytes,
        signatures: dict[str, FunctionType],
        opt_level: int,
        prints: bool,
    ):
        self.key = key
        self.signatures = signatures
        self.prints = prints
        # The runtime callbacks that modules may call (file I/O); imported here,
        # as io_runtime builds on the kernel module, which builds on this one.
        from xsparse.backend import io_runtime

        io_runtime.register()
        threads.register()
        with log_time(COMPILE_LOGGER, "module %s loaded into the JIT", key[:12]):
            # MCJIT takes ownership of its target machine: give it a fresh one.
            self._engine = llvm.create_mcjit_compiler(
                llvm.parse_assembly(""), _new_target_machine(opt_level)
            )
            self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            self._engine.finalize_object()
        self._functions: dict[str, NativeFunction] = {}

    def address(self, symbol: str) -> int:
        address = cast(int, self._engine.get_function_address(symbol))
        if not address:
            raise KeyError(f"no function '{symbol}' in the compiled module")
        return address

    def function(
        self,
        name: str,
        signature: FunctionType | None = None,
        *,
        checked: bool = False,
        in_kernel: bool = False,
    ) -> NativeFunction:
        """The public function `name` (its memref-level signature is known from
        lowering); `checked`: its entry that runs its guards first (`compile`'s
        `guards`); `in_kernel`: the one that runs `compile`'s
        `in_kernel_guards` first."""
        prefix = IN_KERNEL_PREFIX if in_kernel else CHECKED_PREFIX if checked else ""
        symbol = PACKED_PREFIX + prefix + name
        found = self._functions.get(symbol)
        if found is not None:
            return found
        signature = signature or self.signatures.get(name)
        if signature is None:
            raise KeyError(
                f"no memref-level signature for '{name}'; compile a LoweredModule "
                "or pass signature="
            )
        if name not in self.signatures:
            raise KeyError(f"'{name}' has no packed wrapper in this module")
        native = NativeFunction(
            name,
            signature,
            self.address(symbol),
            self,
            self.prints,
            checked or in_kernel,
        )
        self._functions[symbol] = native
        return native


def _full_ir(
    source: LoweredModule | str,
    fast_math: bool,
    signatures: dict[str, FunctionType],
    guards: dict[str, Sequence[Guard]],
    in_kernel_guards: dict[str, Sequence[Guard]],
) -> str:
    ir = source if isinstance(source, str) else source.llvm_ir(fast_math=fast_math)
    wrappers = "".join(packed_wrapper_ir(n, s) for n, s in signatures.items())
    wrappers += "".join(
        packed_wrapper_ir(n, signatures[n], g) for n, g in guards.items() if g
    )
    wrappers += "".join(
        packed_wrapper_ir(n, signatures[n], g, IN_KERNEL_PREFIX)
        for n, g in in_kernel_guards.items()
        if g
    )
    used = [s for s in RUNTIME_SYMBOLS if f"@{s}(" in ir]
    parallel = f"@{threads.PARALLEL_FOR}(" in ir
    defined = [*used, SCRATCH_TAKE, SCRATCH_GIVE, FAILED, SET_FAILED, FORGET, RELEASE]
    ir = strip_declarations(
        ir, [*defined, threads.PARALLEL_FOR] if parallel else defined
    )
    scratch = scratch_ir(ir)
    return (
        ir
        + "\n"
        + wrappers
        + runtime_ir(used, declared_in=ir)
        + scratch
        + failure_ir(ir + scratch)  # (each declares `free` if no one did)
        + float_builtins_ir(ir)
        + (threads.PARALLEL_FOR_IR if parallel else "")
    )


DECLARED = re.compile(r'^declare [^@\n]*@("[^"]*"|[-\w.$]+)\(', re.MULTILINE)
"""A function declaration of LLVM IR text: its name."""

MLIR_RUNTIME_HINT = (
    "; MLIR's sparse runtime library (`enable-runtime-library=true`) is not part "
    "of xsparse: load it as mlir-runner does (`-shared-libs=` MLIR's "
    'libmlir_c_runner_utils), or lower with `--sparsifier="enable-runtime-library=false"`'
)


def load_shared_libraries(paths: Sequence[str]) -> None:
    """Make the functions of shared libraries callable from compiled code, as
    `mlir-runner -shared-libs=a.so,b.so` does (MLIR's runner utilities and
    sparse runtime library: what `mlir-opt --sparsifier` output calls).
    Functions xsparse's runtime defines keep xsparse's definition."""
    for path in paths:
        try:
            llvm.load_library_permanently(path)
        except RuntimeError as e:
            raise RuntimeError(f"cannot load shared library '{path}': {e}") from None


def check_declarations_resolve(ir: str) -> None:
    """Refuse, before any code runs, a module that calls a function nothing
    defines (MCJIT would resolve it to address 0 and the call would crash)."""
    from xsparse.backend import io_runtime

    io_runtime.register()
    threads.register()
    missing = [
        name
        for name in (m.group(1).strip('"') for m in DECLARED.finditer(ir))
        if not name.startswith("llvm.") and not llvm.address_of_symbol(name)
    ]
    if missing:
        mlir = any(name.startswith("_mlir_ciface_") for name in missing)
        raise RuntimeError(
            f"the module calls functions that nothing defines: "
            f"{', '.join('@' + n for n in missing[:4])}"
            f"{' ...' if len(missing) > 4 else ''}{MLIR_RUNTIME_HINT if mlir else ''}"
        )


def compile(
    source: LoweredModule | str,
    *,
    opt_level: int = 3,
    fast_math: bool = False,
    signatures: dict[str, FunctionType] | None = None,
    guards: dict[str, Sequence[Guard]] | None = None,
    in_kernel_guards: dict[str, Sequence[Guard]] | None = None,
) -> JITModule:
    """Compile a lowered module (or LLVM IR text) to native code, through the caches.

    For LLVM IR text, `signatures` names the memref-level types of the
    functions to call from Python (a packed wrapper is generated for each).
    `guards` gives functions a checked entry (`JITModule.function(name,
    checked=True)`) that calls their guards first; `in_kernel_guards`
    another (`function(name, in_kernel=True)`), for guards that leave checks
    to the function itself.
    """
    sigs = {} if isinstance(source, str) else dict(source.signatures)
    sigs.update(signatures or {})
    ir = _full_ir(source, fast_math, sigs, guards or {}, in_kernel_guards or {})
    # The signatures too: kernels with the same IR (LLVM pointers are untyped)
    # but other element types must not share a module and its argument checks.
    signature_text = repr(sorted((name, str(sig)) for name, sig in sigs.items()))
    key = hashlib.sha256(
        "\0".join(
            [
                host_description(),
                str(opt_level),
                str(fast_math),
                signature_text,
                ir,
            ]
        ).encode()
    ).hexdigest()
    with _lock:
        found = _memory_cache.get(key)
        if found is not None:
            COMPILE_LOGGER.debug("module %s: memory cache hit", key[:12])
            return found
        check_declarations_resolve(ir)  # (a disk-cached object is no proof)
        obj = disk_cache.load(f"{key}.o")
        if obj is None:
            COMPILE_LOGGER.debug("module %s: disk cache miss", key[:12])
            with log_time(
                COMPILE_LOGGER,
                "module %s compiled by LLVM (O%d)",
                key[:12],
                opt_level,
                level=logging.INFO,
            ):
                obj = _optimize(ir, opt_level)
            disk_cache.store(f"{key}.o", obj)
        else:
            COMPILE_LOGGER.debug("module %s: disk cache hit", key[:12])
        prints = any(f"@{s}(" in ir for s in RUNTIME_SYMBOLS) or "@printf(" in ir
        module = JITModule(key, obj, sigs, opt_level, prints)
        _memory_cache[key] = module
        return module


def load(
    key: str, signatures: dict[str, FunctionType], *, opt_level: int, prints: bool
) -> JITModule | None:
    """The module `compile` made under `key` (`JITModule.key`), from the memory
    or disk cache, without its IR; None when it is not cached."""
    with _lock:
        found = _memory_cache.get(key)
        if found is not None:
            COMPILE_LOGGER.debug("module %s: memory cache hit", key[:12])
            return found
        obj = disk_cache.load(f"{key}.o")
        if obj is None:
            COMPILE_LOGGER.debug("module %s: disk cache miss", key[:12])
            return None
        COMPILE_LOGGER.debug("module %s: disk cache hit", key[:12])
        module = JITModule(key, obj, signatures, opt_level, prints)
        _memory_cache[key] = module
        return module


def store_text(name: str, text: str) -> None:
    """Keep a small text file (metadata of a cached kernel) in the disk cache."""
    disk_cache.store(name, text.encode())


def clear_memory_cache() -> None:
    """Forget compiled modules of this process (the disk cache stays)."""
    with _lock:
        _memory_cache.clear()
