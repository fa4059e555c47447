"""Sparse tensors in files: `read_mtx` / `write_mtx` (Matrix Market) and
`read_tns` / `write_tns` (FROSTT, with MLIR's extended header).

    t = xsparse.read_mtx("A.mtx")                    # CSR, float64
    t = xsparse.read_mtx("A.mtx", "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>")
    xsparse.write_tns("A.tns", t)                    # what sparse_tensor.new reads

Reading gives a `SparseTensor` in any encoding (symmetric Matrix Market files
expanded, pattern entries 1); writing takes a `SparseTensor`, a scipy.sparse
matrix or a dense numpy array and writes values exactly. Matrix Market files
go through `scipy.io.mmread` / `mmwrite`: coordinate or array (dense) files,
paths (`.gz` / `.bz2` by their suffix) or open files. A malformed file raises
`FileFormatError` (a ValueError) whose one-line message starts with
`path:line:` (`path:` where the reader names no line). Compiled code reads
and writes the same files with `sparse_tensor.new` and `sparse_tensor.out`.
"""

from xsparse.backend.tensor_files import (
    FileFormatError,
    read_mtx,
    read_tns,
    write_mtx,
    write_tns,
)

__all__ = ["FileFormatError", "read_mtx", "read_tns", "write_mtx", "write_tns"]
