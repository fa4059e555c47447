"""PageRank of a random scale-free graph by power iteration, with
`xsparse.einsum` on the scipy adjacency matrix.

Each iteration is one sparse matrix-vector product, `einsum("ij,j->i", M, r)`
on the column-stochastic transition matrix M (a scipy CSR array, read in
place: no copy, no conversion); the first call compiles the kernel, the
others reuse it. The ranks are checked against the same iteration with
scipy's `M @ r`.

    python examples/pagerank.py [nodes]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.sparse as sp

import xsparse


def scale_free_graph(nodes: int, edges_per_node: int, seed: int = 0) -> sp.csr_array:
    """Edges to targets drawn with probability growing with their index's
    inverse (a few hubs, many leaves), no self loops."""
    rng = np.random.default_rng(seed)
    sources = np.repeat(np.arange(nodes), edges_per_node)
    targets = (nodes * rng.random(sources.size) ** 3).astype(np.int64)
    keep = sources != targets
    ones = np.ones(int(keep.sum()))
    graph = sp.coo_array((ones, (targets[keep], sources[keep])), shape=(nodes, nodes))
    return sp.csr_array(graph)


def transition_matrix(adjacency: sp.csr_array) -> sp.csr_array:
    """Column j split evenly over the edges leaving node j."""
    out_degree = np.asarray(adjacency.sum(axis=0)).ravel()
    scale = np.divide(
        1.0, out_degree, out=np.zeros_like(out_degree), where=out_degree > 0
    )
    return sp.csr_array(adjacency @ sp.diags_array(scale))


def pagerank(
    matvec, nodes: int, damping: float = 0.85, tol: float = 1e-10
) -> tuple[np.ndarray, int]:
    rank = np.full(nodes, 1.0 / nodes)
    for iteration in range(1, 1000):
        spread = matvec(rank)
        lost = 1.0 - spread.sum()  # rank of dangling nodes, spread evenly
        new = damping * spread + (1.0 - damping * (1.0 - lost)) / nodes
        if np.abs(new - rank).sum() < tol:
            return new, iteration
        rank = new
    return rank, iteration


def main() -> None:
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    m = transition_matrix(scale_free_graph(nodes, 8))
    print(f"graph: {nodes} nodes, {m.nnz} edges; {xsparse.get_num_threads()} thread(s)")

    start = time.perf_counter()
    xsparse.einsum("ij,j->i", m, np.ones(nodes))  # compiles (or loads from the cache)
    print(f"first einsum call (compile): {time.perf_counter() - start:.3f} s")

    start = time.perf_counter()
    ours, iterations = pagerank(lambda r: xsparse.einsum("ij,j->i", m, r), nodes)
    ours_time = time.perf_counter() - start
    start = time.perf_counter()
    theirs, ref_iterations = pagerank(lambda r: m @ r, nodes)
    theirs_time = time.perf_counter() - start

    print(f"PageRank with xsparse.einsum: {iterations} iterations, {ours_time:.3f} s")
    print(
        f"PageRank with scipy's M @ r:  {ref_iterations} iterations, {theirs_time:.3f} s"
    )
    top = np.argsort(ours)[::-1][:5]
    print("top nodes:", ", ".join(f"{n} ({ours[n]:.2e})" for n in top))
    assert np.allclose(ours, theirs, rtol=1e-8, atol=1e-14), "ranks differ from scipy's"
    print("ranks match scipy: OK")


if __name__ == "__main__":
    main()
