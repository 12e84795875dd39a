#!/usr/bin/python3
"""numpy reference for the CKA benchmark: centred Gram matrices per layer (BLAS), then linear CKA for every pair.

usage: seed_cka.py <file.safetensors>   (tensors x [m, L1, H1], y [m, L2, H2]); prints JSON {seconds, cpu, linear}.
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
    out = {}
    for k, v in h.items():
        if k == "__metadata__":
            continue
        s, e = v["data_offsets"]
        out[k] = np.frombuffer(b[base + s : base + e], dtype="<f4").reshape(v["shape"])
    return out


t = read(sys.argv[1])
x, y = t["x"], t["y"]
t0 = time.perf_counter()
c0 = time.process_time()


def grams(a):
    out = []
    for l in range(a.shape[1]):
        c = a[:, l, :].astype(np.float64)
        c -= c.mean(axis=0)
        out.append(c @ c.T)
    return out


K = grams(x)
L = grams(y)
nk = [np.sqrt((k * k).sum()) for k in K]
nl = [np.sqrt((l * l).sum()) for l in L]
G = np.array([[(K[i] * L[j]).sum() / (nk[i] * nl[j]) for j in range(len(L))] for i in range(len(K))])
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "linear": G.tolist()}))
