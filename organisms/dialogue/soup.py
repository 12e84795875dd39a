"""Weight average of two checkpoints of one model (a "model soup", Wortsman et al. 2022), for trying the dialogue
organism's fine-tunes side by side (docs/organisms.md). Not part of the build: no shipped organism is a soup.

    python organisms/dialogue/soup.py A.pt B.pt ALPHA OUT.pt     # OUT = (1 - ALPHA) * A + ALPHA * B
"""
import sys

import torch

a = torch.load(sys.argv[1], map_location='cpu')
b = torch.load(sys.argv[2], map_location='cpu')
alpha = float(sys.argv[3])
if a.keys() != b.keys() or any(a[k].shape != b[k].shape for k in a):
    sys.exit('soup.py: the two checkpoints are not of one shape')
out = {k: ((1 - alpha) * a[k].float() + alpha * b[k].float()).to(a[k].dtype) if a[k].is_floating_point() else a[k] for k in a}
print('tensors that differ:', sum(1 for k in a if a[k].is_floating_point() and not torch.equal(a[k], b[k])))
torch.save(out, sys.argv[4])
