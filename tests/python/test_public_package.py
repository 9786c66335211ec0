#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The public package gnn mirrors torch's module tree: every module imports
the way torch's does, holds the very objects the gi face gives, answers
names registered after it was imported, and its classes take torch's
constructor signatures (declared next to each class)."""

import importlib
import inspect
import subprocess
import sys
import unittest

import torch
import torch.nn
import torch.optim.lr_scheduler
import torch.utils.data

TREE = ('gnn', 'gnn.nn', 'gnn.nn.functional', 'gnn.nn.init', 'gnn.nn.utils', 'gnn.nn.utils.rnn',
        'gnn.nn.parallel', 'gnn.nn.modules', 'gnn.optim', 'gnn.optim.lr_scheduler', 'gnn.utils',
        'gnn.utils.data', 'gnn.utils.data.distributed', 'gnn.autograd', 'gnn.distributed',
        'gnn.multiprocessing', 'gnn.backends', 'gnn.backends.cudnn', 'gnn.cuda', 'gnn.vision',
        'gnn.vision.datasets', 'gnn.vision.transforms', 'gnn.vision.utils', 'gnn.vision.models')

# names each module must have, as torch's has them
EXPECTED = {
    'gnn': ['Tensor', 'tensor', 'zeros', 'float32', 'long', 'manual_seed', 'no_grad', 'save',
            'load', 'device', 'Generator', 'from_numpy', 'is_tensor', 'FloatTensor', 'finfo',
            'set_grad_enabled', 'inference_mode', 'get_num_threads', 'nn', 'optim', 'utils',
            'cuda', 'backends', 'autograd', 'distributed', 'multiprocessing'],
    'gnn.nn': ['Module', 'Linear', 'Conv2d', 'Sequential', 'ModuleList', 'ModuleDict', 'ReLU',
               'Dropout', 'CrossEntropyLoss', 'MSELoss', 'Parameter', 'Flatten', 'functional',
               'init', 'utils', 'parallel', 'modules'],
    'gnn.nn.functional': ['relu', 'softmax', 'log_softmax', 'cross_entropy', 'nll_loss',
                          'mse_loss', 'dropout', 'linear'],
    'gnn.nn.init': ['kaiming_uniform_', 'xavier_uniform_', 'zeros_', 'calculate_gain'],
    'gnn.nn.utils': ['clip_grad_norm_', 'clip_grad_value_', 'rnn'],
    'gnn.nn.parallel': ['DistributedDataParallel'],
    'gnn.nn.modules': ['Module', 'Linear'],
    'gnn.optim': ['SGD', 'Adam', 'AdamW', 'Optimizer', 'lr_scheduler'],
    'gnn.optim.lr_scheduler': ['StepLR', 'CosineAnnealingLR'],
    'gnn.utils.data': ['DataLoader', 'Dataset', 'IterableDataset', 'TensorDataset', 'Subset',
                       'ConcatDataset', 'Sampler', 'RandomSampler', 'SequentialSampler',
                       'BatchSampler', 'SubsetRandomSampler', 'WeightedRandomSampler',
                       'DistributedSampler', 'random_split', 'default_collate',
                       'get_worker_info'],
    'gnn.utils.data.distributed': ['DistributedSampler'],
    'gnn.autograd': ['no_grad', 'enable_grad', 'set_grad_enabled', 'backward', 'Variable'],
    'gnn.distributed': ['init_process_group', 'all_reduce', 'get_rank', 'ReduceOp'],
    'gnn.multiprocessing': ['Process', 'get_start_method', 'set_sharing_strategy'],
    'gnn.backends.cudnn': ['benchmark', 'deterministic'],
    'gnn.cuda': ['is_available', 'device_count', 'manual_seed'],
    'gnn.vision.datasets': ['MNIST', 'FashionMNIST'],
}


class Tree(unittest.TestCase):
    def test_every_module_imports(self):
        for name in TREE:
            with self.subTest(module=name):
                module = importlib.import_module(name)
                self.assertTrue(module.__file__.endswith(
                    name.replace('.', '/') + ('/__init__.py' if module.__file__.endswith(
                        '__init__.py') else '.py')), module.__file__)
                for attr in EXPECTED.get(name, ()):
                    self.assertTrue(hasattr(module, attr), '%s.%s' % (name, attr))
                    self.assertIn(attr, dir(module))

    def test_torch_import_spellings(self):
        # each line as a torch program writes it, rewritten to gnn
        code = '\n'.join((
            'import gnn as torch',
            'import gnn.nn as nn',
            'import gnn.nn.functional as F',
            'import gnn.optim as optim',
            'from gnn.optim.lr_scheduler import StepLR',
            'from gnn.utils.data import DataLoader, Dataset, TensorDataset',
            'from gnn.utils.data.distributed import DistributedSampler',
            'from gnn.nn.parallel import DistributedDataParallel as DDP',
            'import gnn.distributed as dist',
            'import gnn.multiprocessing as mp',
            'import gnn.backends.cudnn as cudnn',
            'from gnn import nn, optim',
            'from gnn.nn import *',
            'from gnn.autograd import Variable',
            'from gnn.vision import datasets, transforms, utils, models',
            'import gnn.vision as torchvision',
            'assert Linear is nn.Linear and Module is torch.nn.Module',
            "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')",
            "assert str(device) == 'cpu'",
            'cudnn.benchmark = True',
            'print("ok")',
        ))
        out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), 'ok')

    def test_gnn_first_then_gi_and_back(self):
        # either face can be imported first; one set of objects
        for first in ('import gnn',
                      'import gi; gi.require_version("Gnn", "1.0"); from gi.repository import Gnn'):
            code = ('import warnings\n'
                    'warnings.filterwarnings("error", ".*without specifying a version")\n' +
                    first + '\nimport gi\ngi.require_version("Gnn", "1.0")\n'
                    'from gi.repository import Gnn\nimport gnn, gnn.nn, gnn.utils.data\n'
                    'assert Gnn.nn is gnn.nn and Gnn.Linear is gnn.nn.Linear\n'
                    'assert Gnn.functional is gnn.nn.functional\n'
                    'assert gnn.utils.data.DataLoader is Gnn.DataLoader\n'
                    'assert gnn.Generator is Gnn.Generator\n')
            out = subprocess.run([sys.executable, '-c', code],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, (first, out.stderr))


class SameObjects(unittest.TestCase):
    def test_gi_face(self):
        import gi
        gi.require_version('Gnn', '1.0')
        from gi.repository import Gnn
        import gnn
        import gnn.nn
        import gnn.optim
        import gnn.utils.data
        self.assertIs(Gnn.nn, gnn.nn)
        self.assertIs(Gnn.optim, gnn.optim)
        for name in ('Linear', 'Module', 'Sequential', 'CrossEntropyLoss', 'Parameter'):
            self.assertIs(getattr(gnn.nn, name), getattr(Gnn, name))
            self.assertIs(getattr(gnn.nn.modules, name), getattr(Gnn, name))
        for name in ('DataLoader', 'TensorDataset', 'RandomSampler'):
            self.assertIs(getattr(gnn.utils.data, name), getattr(Gnn, name))
        self.assertIs(gnn.optim.SGD, Gnn.SGD)
        self.assertIs(gnn.tensor, Gnn.tensor)
        self.assertIs(gnn.nn.functional.relu, Gnn.functional.relu)

    def test_names_shared_with_torch(self):
        # what both have is a class where torch has a class, a callable
        # where torch has one
        pairs = [(torch.nn, 'gnn.nn'), (torch.nn.functional, 'gnn.nn.functional'),
                 (torch.optim, 'gnn.optim'), (torch.optim.lr_scheduler, 'gnn.optim.lr_scheduler'),
                 (torch.utils.data, 'gnn.utils.data'), (torch, 'gnn')]
        for torch_module, name in pairs:
            module = importlib.import_module(name)
            shared = [n for n in dir(module) if not n.startswith('_') and hasattr(torch_module, n)]
            self.assertGreaterEqual(len(shared), 2, name)
            for attr in shared:
                with self.subTest(name='%s.%s' % (name, attr)):
                    ours, theirs = getattr(module, attr), getattr(torch_module, attr)
                    if inspect.isclass(theirs) and not inspect.ismodule(ours):
                        self.assertTrue(callable(ours))
                    if inspect.isfunction(theirs) or inspect.isbuiltin(theirs):
                        self.assertTrue(callable(ours))


class LaterNames(unittest.TestCase):
    """Names registered after the public module was built appear in it."""

    def test_namespace_addition(self):
        import gnn._public
        import gnn.nn.functional
        private = gnn._public._namespace('nn.functional')
        self.assertIsNot(private, gnn.nn.functional)

        def brand_new_op(x):
            return x
        private.brand_new_op = brand_new_op
        try:
            self.assertIs(gnn.nn.functional.brand_new_op, brand_new_op)
            from gnn.nn.functional import brand_new_op as imported
            self.assertIs(imported, brand_new_op)
        finally:
            del private.brand_new_op
        with self.assertRaisesRegex(AttributeError, "module 'gnn.nn.functional' has no "
                                                    "attribute 'brand_new_op'"):
            gnn.nn.functional.brand_new_op

    def test_derived_classes(self):
        # a class of the typelib deriving from Module is gnn.nn's, listed or not
        import gi
        gi.require_version('Gnn', '1.0')
        from gi.repository import Gnn
        import gnn.nn
        self.assertIs(gnn.nn.BatchNormBase, Gnn.BatchNormBase)
        self.assertIs(gnn.nn.Identity, Gnn.Identity)
        from gnn._gi import export

        class LateLayer(Gnn.Module):
            __gtype_name__ = 'TestLateLayer'
        export(LateLayer)
        self.assertIs(gnn.nn.LateLayer, LateLayer)
        self.assertIs(gnn.utils.data.Dataset, Gnn.Dataset)


class Signatures(unittest.TestCase):
    """torch's constructor signatures, declared per class."""

    def torch_class(self, name):
        for module in (torch.nn, torch.optim, torch.optim.lr_scheduler, torch.utils.data):
            if hasattr(module, name):
                return getattr(module, name)
        return None

    def test_declared_signatures_are_torchs(self):
        import gi
        gi.require_version('Gnn', '1.0')
        from gi.repository import Gnn
        import gnn._gi
        checked = 0
        for name, cls in sorted(gnn._gi.EXPORTS.items()):
            declaration = getattr(cls, '__torch_signature__', None)
            theirs = self.torch_class(name)
            if declaration is None or theirs is None or \
                    declaration is getattr(cls.__mro__[1], '__torch_signature__', None):
                continue
            with self.subTest(cls=name):
                ours = inspect.signature(cls.__init__).parameters
                # (torch's RNN/LSTM/GRU take *args, **kwargs: nothing to compare)
                torch_params = [p for p in inspect.signature(theirs.__init__).parameters.values()
                                if p.name != 'self' and
                                p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
                # torch 1.13's parameters, in its order (Gnn may take 2.x's
                # later keyword-only ones too) ...
                self.assertEqual([p.name for p in torch_params],
                                 [n for n in ours if n in {p.name for p in torch_params}])
                positional = [p.name for p in torch_params if p.kind == p.POSITIONAL_OR_KEYWORD]
                self.assertEqual(list(ours)[:len(positional)], positional)
                # ... with its defaults (where 1.13 has a real one)
                for p in torch_params:
                    if p.default is p.empty or 'required' in repr(p.default):
                        continue
                    if not p.default and not ours[p.name].default:
                        continue      # False / None / 0: 'off' either way
                    if callable(p.default):   # F.relu: torch's function, Gnn's of that name
                        self.assertEqual(ours[p.name].default.__name__, p.default.__name__)
                        continue
                    self.assertEqual(ours[p.name].default, p.default, p.name)
                checked += 1
        self.assertGreaterEqual(checked, 20)
        self.assertEqual(Gnn.Linear.__init__.__doc__,
                         'torch: Linear(in_features, out_features, bias=True, device=None, '
                         'dtype=None)')

    def test_construction_ways(self):
        import gnn.nn
        a = gnn.nn.Linear(3, 2, False)                              # torch positional
        b = gnn.nn.Linear(3, 2, bias=False)                         # torch keyword
        c = gnn.nn.Linear(in_features=3, out_features=2, has_bias=False)   # GObject
        for m in (a, b, c):
            self.assertEqual([n for n, _ in m.named_parameters()], ['weight'])
        with self.assertRaises(TypeError):
            gnn.nn.Linear(3)

    def test_compatibility_table(self):
        # a row an older branch adds to the central table still declares
        from gnn import _compat_torch_signatures as compat
        from gnn._signature import TorchSignature
        self.assertEqual(compat.TABLE, {})
        compat.TABLE['Tanh'] = ('', {})
        try:
            cls = compat.torch_class('Tanh')
            self.assertEqual(cls.__init__.__doc__, 'torch: Tanh()')
            self.assertEqual(cls().forward(cls and __import__('gnn').zeros(2)).tolist(), [0, 0])
        finally:
            del compat.TABLE['Tanh']
        # the old converter names a row may use still exist
        for name in ('_pair', '_only', '_ignore', '_none_or', '_Post', '_add_params',
                     '_DEVICE_DTYPE', '_LOSS', '_BATCH_NORM', '_betas', '_shape_variant',
                     '_pool_stride', '_device', '_to_dtype'):
            self.assertTrue(hasattr(compat, name), name)
        declaration = TorchSignature('X', 'a, b=2', {'a': compat._pair('kernel')})
        self.assertEqual(declaration.properties((3,), {}), ({'kernel_h': 3, 'kernel_w': 3}, []))


if __name__ == '__main__':
    unittest.main(verbosity=2)
