#!/usr/bin/python3
# dataset.py: a map-style dataset written in Python, batched by Gnn's loader.
#
# As with torch.utils.data.Dataset, a subclass gives a length and an item per
# index; Gnn.DataLoader samples, batches (stacking field by field, like
# torch's default_collate) and iterates:
#
#   for features, targets, index in Gnn.DataLoader(ds, batch_size=4, ...):
#
# Run with Debian's /usr/bin/python3 (PyGObject + numpy).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

import numpy as np  # noqa: E402


class Ds(Gnn.Dataset):
    """Item i: (a float32 feature vector, its sum as a Python float, i)."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    # __len__ and __getitem__ in torch; here the Gnn.Dataset vfuncs, so the
    # loader (C code, possibly worker threads or processes) can call them.
    def do_get_length(self):
        return self.n

    def do_get_item(self, index):
        features = np.arange(3, dtype=np.float32) + index
        # numpy arrays become tensors of their dtype; a float becomes a
        # float64 0-d tensor and an int an int64 one (torch's conventions).
        return features, float(features.sum()), index


def main():
    ds = Ds(10)
    print('len(ds) =', len(ds))
    x, total, i = ds[-1]                  # negative indices wrap, as in torch
    print('ds[-1] =', x.numpy(), total.item(), i.item())

    # shuffle with a seed: the same order on every run, whatever the number
    # of workers. Python datasets also work with num_workers > 0 and
    # worker_mode='processes' (forked workers, batches in shared memory).
    loader = Gnn.DataLoader(ds, batch_size=4, shuffle=True, seed=1)
    print('len(loader) =', len(loader))   # 3 batches: 4 + 4 + 2
    seen = []
    for features, totals, index in loader:
        print('batch: features %s %s, totals %s, indices %s'
              % (features.shape, features.dtype, totals.numpy(), index.numpy()))
        # The collated fields still line up item by item.
        assert np.allclose(features.numpy().sum(axis=1), totals.numpy())
        seen.extend(index.numpy().tolist())

    assert sorted(seen) == list(range(10)), seen


if __name__ == '__main__':
    main()
