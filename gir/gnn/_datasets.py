# _datasets.py: torchvision's FashionMNIST and MNIST over the IDX files
# Debian ships (dataset-fashion-mnist): items (1x28x28 float32 in [0, 1],
# int64 label) as torchvision's ToTensor() gives them.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

from ._signature import initable_init
from ._gi import OVERRIDE_MODULE, Gnn, call_c, export, override
from ._data import Dataset

_ROOTS = {'FashionMNIST': '/usr/share/datasets/fashion-mnist',
          'MNIST': '/usr/share/datasets/mnist'}


class _Transformed(Dataset):
    """A dataset whose items pass through torchvision-style transforms."""

    def __init__(self, base, transform, target_transform):
        super().__init__()
        self.base, self.transform, self.target_transform = base, transform, target_transform

    def __len__(self):
        return len(self.base)

    def __getitem__(self, index):
        image, label = self.base[index]
        if self.transform is not None:
            image = self.transform(image)
        if self.target_transform is not None:
            label = self.target_transform(label)
        return image, label


def _idx_dataset(name):
    def make(root=None, train=True, transform=None, target_transform=None, download=False):
        folder = _ROOTS[name] if root is None or not os.path.isdir(
            os.path.join(str(root))) or not _has_files(str(root), train) else str(root)
        for sub in ('', name, os.path.join(name, 'raw')):
            if _has_files(os.path.join(str(root or folder), sub), train):
                folder = os.path.join(str(root or folder), sub)
                break
        prefix = 'train' if train else 't10k'
        files = [_find(folder, '%s-%s-idx%d-ubyte' % (prefix, kind, n))
                 for kind, n in (('images', 3), ('labels', 1))]
        if None in files:
            raise RuntimeError('Dataset not found in %s: install dataset-%s or pass the root '
                               'holding %s-images-idx3-ubyte(.gz)'
                               % (folder, name.lower().replace('fashionmnist', 'fashion-mnist'),
                                  prefix))
        idx = call_c(Gnn.IdxDataset.new, *files)
        images = idx.get_images()
        n, rows, cols = images.get_shape()
        dataset = Gnn.TensorDataset.new([Gnn.Tensor.reshape(images, [n, 1, rows, cols]),
                                         idx.get_labels()])
        if transform is None and target_transform is None:
            return dataset
        return _Transformed(dataset, transform, target_transform)
    make.__name__ = name
    make.__doc__ = ('torchvision.datasets.%s(root, train=True, transform=None, '
                    'target_transform=None): a dataset of (1x28x28 float32 image in [0, 1], '
                    'int64 label); root defaults to Debian\'s %s.' % (name, _ROOTS[name]))
    return make


def _find(folder, stem):
    for path in (os.path.join(folder, stem), os.path.join(folder, stem + '.gz')):
        if os.path.isfile(path):
            return path
    return None


def _has_files(folder, train):
    return _find(folder, '%s-images-idx3-ubyte' % ('train' if train else 't10k')) is not None


FashionMNIST = export(_idx_dataset('FashionMNIST'))
MNIST = export(_idx_dataset('MNIST'))


class IdxDataset(Gnn.IdxDataset):
    """Gnn.IdxDataset(images_path=..., labels_path=...): the files are read
    at construction, and a bad file raises (PyGObject alone never runs
    GInitable.init, which would leave an empty dataset)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, **kwargs):
        Gnn.IdxDataset.__init__(self, **kwargs)
        initable_init(self)


IdxDataset = override(IdxDataset)
