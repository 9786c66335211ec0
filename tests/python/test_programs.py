#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""PyTorch programs run on Gnn with only their import lines rewritten.

Every program in programs/ is written for torch, the way PyTorch's example
programs are written. Each runs twice in this process: as written (torch
1.13) and with its import lines rewritten by the rule Gnn documents —

    import torch                 ->  import gnn as torch
    import torch.X as Y          ->  import gnn.X as Y
    import torch.X               ->  import gnn.X
    from torch.X import Y        ->  from gnn.X import Y
    from torch import Y          ->  from gnn import Y
    import torchvision...        ->  import gnn.vision...

— and nothing else. The losses of the Gnn run must track torch's within
1e-4 for the first steps. To compare runs of two libraries with different
random number generators, the runner (not the program) gives both the same
randomness:

  * the initial weights: when the program builds an optimizer, torch's
    parameters are recorded, and Gnn's are set to them (same order; a
    program with several optimizers, a GAN's, has them matched in the
    order it builds them);
  * the data order: a DataLoader with shuffle=True gets the same permutation
    of indices each epoch on both sides (drawn by numpy);
  * dropout: nn.Dropout and F.dropout draw their masks from numpy, the same
    masks in the same order on both sides;
  * normal noise: torch.randn and torch.randn_like draw from numpy too.

Each run works in a directory of its own (the files a program writes, such
as save_image's PNGs, must be the same: same names, pixels within 2 levels);
a header line `# runner-data: FashionMNIST` gives both runs ./data with
torchvision's FashionMNIST layout, filled from Debian's dataset-fashion-mnist
(the program may pass download=True: the files are there already). Losses
are compared within 1e-4, relative to the loss when it is above 1 (summed
losses).

The losses are those each loss.backward() is called on. Adding a program is
adding its file: a header line `# runner-args: ...` gives its command line
(a few batches); `# runner-steps: N` how many losses to compare (default:
all).
"""

import contextlib
import functools
import io
import os
import re
import sys
import tempfile
import unittest

import numpy as np
import torch
import torch.nn
import torch.nn.functional
import torch.optim
import torch.utils.data

import gnn
import gnn.nn
import gnn.nn.functional
import gnn.optim
import gnn.utils.data

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'programs')
TOLERANCE = 1e-4
SEED = 20240601


# --- the import rewrite ----------------------------------------------------------

_IMPORT_RULES = (
    (re.compile(r'^(\s*)import torch(\s*(#.*)?)$'), r'\1import gnn as torch\2'),
    (re.compile(r'^(\s*)import torch\.'), r'\1import gnn.'),
    (re.compile(r'^(\s*)from torch(\.| )'), r'\1from gnn\2'),
    (re.compile(r'^(\s*)import torchvision\b'), r'\1import gnn.vision'),
    (re.compile(r'^(\s*)from torchvision(\.| )'), r'\1from gnn.vision\2'),
)


def rewrite_imports(source):
    """`source` with its torch import lines rewritten to gnn (nothing else)."""
    lines = []
    for line in source.splitlines(keepends=True):
        body = line.rstrip('\n')
        if re.match(r'^\s*(import|from)\s+torch', body):
            for pattern, replacement in _IMPORT_RULES:
                if pattern.match(body):
                    body = pattern.sub(replacement, body, count=1)
                    break
        lines.append(body + line[len(line.rstrip('\n')):])
    return ''.join(lines)


# --- the same randomness on both sides --------------------------------------------

class SharedRandomness(object):
    """Patches one library (torch or gnn) for a run: records or restores
    the initial parameters, draws shuffles and dropout masks from numpy,
    and records the losses backward() is called on."""

    def __init__(self, T, name, initial=None):
        self.T = T
        self.name = name
        self.initial = initial          # parameters to give the model (gnn run)
        self.recorded = None            # torch's initial parameters (torch run)
        self.optimizers = 0             # optimizers built so far
        self.losses = []
        self.rng = np.random.default_rng(SEED)

    # randomness drawn by the runner
    def permutation(self, n):
        return [int(i) for i in self.rng.permutation(n)]

    def mask(self, shape, p):
        keep = (self.rng.random(tuple(shape)) >= p).astype(np.float32)
        return keep / np.float32(1.0 - p)

    def normal(self, shape):
        return self.T.from_numpy(self.rng.standard_normal(tuple(shape)).astype(np.float32))

    def randn(self, *size, **kwargs):
        shape = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        return self.normal([int(n) for n in shape])

    def randn_like(self, input, **kwargs):
        return self.normal(input.shape)

    def dropout(self, input, p=0.5, training=True, inplace=False):
        if not training or p == 0:
            return input
        return input * self.T.from_numpy(self.mask(input.shape, p))

    @contextlib.contextmanager
    def patched(self):
        T, shim = self.T, self
        nn, F, data = T.nn, T.nn.functional, T.utils.data
        saved = [(nn, 'Dropout', nn.Dropout), (F, 'dropout', F.dropout),
                 (data, 'DataLoader', data.DataLoader), (T.Tensor, 'backward', T.Tensor.backward),
                 (T, 'randn', T.randn), (T, 'randn_like', T.randn_like)]
        optimizers = [(cls, cls.__init__) for cls in _optimizer_classes(T)]
        loader_class = data.DataLoader

        class Permutation(object):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                return iter(shim.permutation(self.n))

            def __len__(self):
                return self.n

        def DataLoader(dataset, batch_size=1, shuffle=False, *args, **kwargs):
            if shuffle:
                kwargs['sampler'] = Permutation(len(dataset))
            return loader_class(dataset, batch_size, False, *args, **kwargs)

        def backward(tensor, *args, **kwargs):
            if tensor.dim() == 0:
                shim.losses.append(float(tensor.item()))
            return saved[3][2](tensor, *args, **kwargs)

        def wrap_init(cls, init):
            @functools.wraps(init)
            def __init__(self, params, *args, **kwargs):
                params = list(params)
                shim.set_or_record(params)
                init(self, params, *args, **kwargs)
            return __init__

        nn.Dropout = _shared_dropout_class(T, shim)
        F.dropout = self.dropout
        data.DataLoader = DataLoader
        T.Tensor.backward = backward
        T.randn, T.randn_like = self.randn, self.randn_like
        for cls, init in optimizers:
            cls.__init__ = wrap_init(cls, init)
        try:
            yield
        finally:
            for owner, attr, value in saved:
                setattr(owner, attr, value)
            for cls, init in optimizers:
                cls.__init__ = init

    def set_or_record(self, params):
        tensors = [p['params'] if isinstance(p, dict) else p for p in params]
        index = self.optimizers
        self.optimizers += 1
        if self.initial is None:
            self.recorded = (self.recorded or []) + [[p.detach().numpy().copy()
                                                      for p in tensors]]
            return
        if index >= len(self.initial):
            raise AssertionError('%s builds optimizer %d, torch built %d'
                                 % (self.name, index + 1, len(self.initial)))
        initial = self.initial[index]
        if len(tensors) != len(initial):
            raise AssertionError('%s builds %d parameters, torch %d'
                                 % (self.name, len(tensors), len(initial)))
        with self.T.no_grad():
            for p, value in zip(tensors, initial):
                if list(p.shape) != list(value.shape):
                    raise AssertionError('parameter of shape %s, torch\'s is %s'
                                         % (list(p.shape), list(value.shape)))
                p.copy_(self.T.from_numpy(value.copy()))


def _optimizer_classes(T):
    return [getattr(T.optim, n) for n in dir(T.optim)
            if isinstance(getattr(T.optim, n), type) and
            issubclass(getattr(T.optim, n), T.optim.Optimizer) and n != 'Optimizer']


_DROPOUT_CLASSES = {}


def _shared_dropout_class(T, shim):
    """nn.Dropout whose masks come from the runner (one class per library:
    a Gnn module class is a GType, defined once)."""
    cls = _DROPOUT_CLASSES.get(T.__name__)
    if cls is None:
        class Dropout(T.nn.Module):
            def __init__(self, p=0.5, inplace=False):
                super().__init__()
                self.p = p
                self.inplace = inplace

            def forward(self, input):
                return Dropout.shim.dropout(input, self.p, self.training)

            def extra_repr(self):
                return 'p={}, inplace={}'.format(self.p, self.inplace)
        cls = _DROPOUT_CLASSES[T.__name__] = Dropout
    cls.shim = shim
    return cls


# --- running a program ------------------------------------------------------------

def header(source, key):
    match = re.search(r'^# %s:(.*)$' % key, source, re.M)
    return match.group(1).split() if match else None


def prepare_data(source, root):
    """The data sets the program's `runner-data` header names, under root."""
    from gnn.vision import datasets
    for name in header(source, 'runner-data') or []:
        for train in (True, False):
            getattr(datasets, name)(root, train=train, download=True)


def written_files(workdir):
    """{relative path: absolute path} of what a run wrote (not its data)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(workdir):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) !=
                       os.path.join(workdir, 'data')]
        for name in filenames:
            path = os.path.join(dirpath, name)
            found[os.path.relpath(path, workdir)] = path
    return found


def run(path, T, initial=None, workdir=None):
    """(shim, printed output) of the program at `path` on library T, run
    in workdir (the current directory when None)."""
    with open(path) as f:
        source = f.read()
    if T is gnn:
        source = rewrite_imports(source)
    shim = SharedRandomness(T, T.__name__, initial)
    argv = [path] + (header(source, 'runner-args') or [])
    out = io.StringIO()
    saved_argv, cwd = sys.argv, os.getcwd()
    sys.argv = argv
    if workdir is not None:
        os.chdir(workdir)
    try:
        with shim.patched(), contextlib.redirect_stdout(out):
            code = compile(source, path, 'exec')
            exec(code, {'__name__': '__main__', '__file__': path})
    finally:
        sys.argv = saved_argv
        os.chdir(cwd)
    return shim, out.getvalue()


class Rewrite(unittest.TestCase):
    def test_only_import_lines_change(self):
        source = ('import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n'
                  'from torch.utils.data import DataLoader\nfrom torch import nn, optim\n'
                  'import torch.utils.data\nimport torchvision\n'
                  'from torchvision import datasets, transforms\n'
                  'x = torch.zeros(2)  # import torch here stays\n'
                  '    import torch\n')
        self.assertEqual(rewrite_imports(source),
                         'import gnn as torch\nimport gnn.nn as nn\n'
                         'import gnn.nn.functional as F\nfrom gnn.utils.data import DataLoader\n'
                         'from gnn import nn, optim\nimport gnn.utils.data\n'
                         'import gnn.vision\nfrom gnn.vision import datasets, transforms\n'
                         'x = torch.zeros(2)  # import torch here stays\n'
                         '    import gnn as torch\n')


def _program_test(path):
    def test(self):
        with open(path) as f:
            source = f.read()
        torch.set_num_threads(1)
        gnn.set_num_threads(1)
        with tempfile.TemporaryDirectory() as tmp:
            dirs = {}
            for name in ('torch', 'gnn'):
                dirs[name] = os.path.join(tmp, name)
                os.makedirs(dirs[name])
                os.symlink(os.path.join(tmp, 'data'), os.path.join(dirs[name], 'data'))
            prepare_data(source, os.path.join(tmp, 'data'))
            reference, torch_out = run(path, torch, workdir=dirs['torch'])
            self.assertTrue(reference.losses, 'the torch run called no backward()')
            self.assertIsNotNone(reference.recorded, 'the torch run built no optimizer')
            ours, gnn_out = run(path, gnn, initial=reference.recorded, workdir=dirs['gnn'])
            self.assert_same_files(written_files(dirs['torch']), written_files(dirs['gnn']))
        steps = int((header(source, 'runner-steps') or [len(reference.losses)])[0])
        self.assertEqual(len(ours.losses), len(reference.losses), gnn_out)
        for step, (a, b) in enumerate(zip(ours.losses[:steps], reference.losses[:steps])):
            self.assertLessEqual(abs(a - b), TOLERANCE * max(1.0, abs(b)),
                                 'step %d: gnn %.7f, torch %.7f\n%s' % (step, a, b, gnn_out))
        # the programs print the same lines, up to the last digits
        self.assertEqual(len(gnn_out.splitlines()), len(torch_out.splitlines()))
        sys.stderr.write('\n%s: %d steps, largest loss difference %.2e\n' % (
            os.path.basename(path), steps,
            max(abs(a - b) for a, b in zip(ours.losses[:steps], reference.losses[:steps]))))
    return test


class Programs(unittest.TestCase):
    def assert_same_files(self, theirs, ours):
        self.assertEqual(sorted(ours), sorted(theirs))
        for name in theirs:
            if name.endswith('.png'):
                from PIL import Image
                a = np.asarray(Image.open(theirs[name]), dtype=np.int16)
                b = np.asarray(Image.open(ours[name]), dtype=np.int16)
                self.assertEqual(a.shape, b.shape, name)
                self.assertLessEqual(int(np.abs(a - b).max()), 2, name)


for _file in sorted(os.listdir(PROGRAMS)):
    if _file.endswith('.py'):
        setattr(Programs, 'test_' + _file[:-3], _program_test(os.path.join(PROGRAMS, _file)))


if __name__ == '__main__':
    unittest.main(verbosity=2)
