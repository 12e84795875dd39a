#!/usr/bin/python3
"""The seed's method for the SyncR² benchmark: one closed-form ridge solve per (l_A, l_B) pair, in numpy.

usage: seed_sync.py <file.safetensors> <alpha> <max_sources>
Reads source [n, L_A, H_A], target [n, L_B, H_B] and masks [S, n] (1 = test) from the safetensors file (parsed by
hand: there is no safetensors package here), solves the pairs of the first `max_sources` source layers for every
split, and prints JSON: seconds (wall), cpu (process time, all BLAS threads), pairs, and the R² grid rows it computed.
"""
import json
import struct
import sys
import time

import numpy as np


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    (hl,) = struct.unpack("<Q", b[:8])
    h = json.loads(b[8 : 8 + hl])
    base = 8 + hl
    codes = {"F32": "<f4", "F64": "<f8", "I32": "<i4", "U8": "u1"}
    out = {}
    for k, v in h.items():
        if k == "__metadata__":
            continue
        s, e = v["data_offsets"]
        out[k] = np.frombuffer(b[base + s : base + e], dtype=codes[v["dtype"]]).reshape(v["shape"])
    return out


def r2_uniform(y, p):
    sse = ((y - p) ** 2).sum(axis=0)
    sst = ((y - y.mean(axis=0)) ** 2).sum(axis=0)
    ok = sst != 0
    sc = np.ones(y.shape[1])
    sc[ok] = 1 - sse[ok] / sst[ok]
    sc[~ok & (sse != 0)] = 0
    return sc.mean()


def main():
    t = read(sys.argv[1])
    alpha = float(sys.argv[2])
    max_src = int(sys.argv[3])
    src, tgt, masks = t["source"], t["target"], t["masks"]
    LA, LB = src.shape[1], tgt.shape[1]
    rows = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    pairs = 0
    for m in masks:
        tr, te = m == 0, m == 1
        grid = []
        for a in range(min(LA, max_src)):
            X = np.hstack([np.ones((tr.sum(), 1)), src[tr, a, :].astype(np.float64)])
            Xt = np.hstack([np.ones((te.sum(), 1)), src[te, a, :].astype(np.float64)])
            row = []
            for b in range(LB):
                Y = tgt[tr, b, :].astype(np.float64)
                P = alpha * np.eye(X.shape[1])
                P[0, 0] = 0
                W = np.linalg.solve(X.T @ X + P, X.T @ Y)
                row.append(r2_uniform(tgt[te, b, :].astype(np.float64), Xt @ W))
                pairs += 1
            grid.append(row)
        rows.append(grid)
    print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "pairs": pairs, "grid": rows}))


main()
