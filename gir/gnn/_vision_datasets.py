# _vision_datasets.py: torchvision.datasets over the C datasets — MNIST,
# FashionMNIST, KMNIST, CIFAR10, CIFAR100, FakeData, ImageFolder and DatasetFolder with
# torchvision's signatures and attributes (data, targets, classes,
# class_to_idx, samples, imgs), items as (image or tensor, int label), and
# transforms that may be any callables (run in C when they are Gnn's).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

from gi.repository import GObject

from . import _namespaces  # noqa: F401  (creates EXPORTS['vision'])
from ._data import Dataset
from ._gi import EXPORTS, OVERRIDE_MODULE, Gnn, call_c, override, trampoline
from ._signature import initable_init
from ._vision_image import open_image
from ._vision_transforms import TargetLambda, _as_transform, _to_result

datasets = EXPORTS['vision'].datasets


def _transform_props(transform, target_transform):
    props = {}
    if transform is not None:
        props['transform'] = _as_transform(transform)
    if target_transform is not None:
        props['target_transform'] = (target_transform if isinstance(target_transform, Gnn.Transform)
                                     else TargetLambda(target_transform))
    return props


def _get_item(self, index):
    """dataset[i]: (input, target) with the label as a Python int."""
    item = Dataset.__getitem__(self, index)
    if isinstance(item, tuple) and len(item) == 2:
        img, target = item
        if isinstance(target, Gnn.Tensor) and target.get_ndim() == 0 and \
                target.get_dtype() == Gnn.DType.I64:
            target = int(target.item())
        return img, target
    return item


class VisionDataset(Gnn.VisionDataset):
    """torchvision's VisionDataset: root, transform, target_transform."""

    __module__ = OVERRIDE_MODULE

    def _init_vision(self, base, props, transform, target_transform):
        # the GObject itself: the __init__ of a C base class resolves to the
        # overrides above it (this one again)
        GObject.Object.__init__(self, **dict(props, **_transform_props(transform,
                                                                      target_transform)))
        self._transform, self._target_transform = transform, target_transform
        initable_init(self)

    @property
    def root(self):
        return self.get_root()

    @property
    def transform(self):
        return getattr(self, '_transform', None) or self.get_transform()

    @property
    def target_transform(self):
        return getattr(self, '_target_transform', None) or self.get_target_transform()

    @property
    def classes(self):
        return list(self.get_classes() or [])

    @property
    def class_to_idx(self):
        return {c: i for i, c in enumerate(self.classes)}

    def __repr__(self):
        head = 'Dataset ' + type(self).__name__
        body = ['Number of datapoints: %d' % len(self)]
        if self.get_root() is not None:
            body.append('Root location: %s' % self.get_root())
        if hasattr(self, 'extra_repr'):
            body += self.extra_repr().splitlines()
        lines = [head] + [' ' * 4 + line for line in body]
        return '\n'.join(lines)


VisionDataset = override(VisionDataset)
VisionDataset.__getitem__ = _get_item


class _SplitProtocol(object):
    """torchvision's (root, train, transform, target_transform, download)
    datasets over a C class with get_data()."""

    def __init__(self, root=None, train=True, transform=None, target_transform=None,
                 download=False, **props):
        if root is None and not props:
            raise TypeError("__init__() missing 1 required positional argument: 'root'")
        if root is not None:
            props.update(root=os.fsdecode(os.path.expanduser(os.fspath(root))))
        props.update(train=bool(train), download=bool(download))
        self._init_vision(self._c_base, props, transform, target_transform)

    @property
    def train(self):
        return self.props.train

    @property
    def data(self):
        return self.get_data()


class _MNISTProtocol(_SplitProtocol):
    """What MNIST, FashionMNIST and KMNIST add to their C classes."""

    @property
    def targets(self):
        return self.get_targets()

    @property
    def raw_folder(self):
        return os.path.join(self.get_root(), type(self).__name__, 'raw')


def _split_class(base, protocol, doc):
    bases = (base,) if issubclass(base, protocol) else (protocol, base)
    return override(type(base.__name__, bases,
                         {'__module__': OVERRIDE_MODULE, '__doc__': doc % base.__name__,
                          '_c_base': base}))


def _mnist_class(base):
    return _split_class(base, _MNISTProtocol,
                        'torchvision.datasets.%s(root, train=True, transform=None, '
                        'target_transform=None, download=False): items (a 28x28 L image, int '
                        'label); download=True copies the files of an installed Debian dataset '
                        'package (Gnn downloads nothing).')


MNIST = _mnist_class(Gnn.MNIST)
FashionMNIST = _mnist_class(Gnn.FashionMNIST)
KMNIST = _mnist_class(Gnn.KMNIST)


class _CIFARProtocol(_SplitProtocol):
    """What CIFAR10 and CIFAR100 add to their C classes: `targets` as a list
    of ints, as torchvision keeps them."""

    @property
    def targets(self):
        targets = self.get_targets()
        return [] if targets is None else [int(t) for t in targets.tolist()]

    def extra_repr(self):
        return 'Split: %s' % ('Train' if self.train else 'Test')


def _cifar_class(base):
    return _split_class(base, _CIFARProtocol,
                        'torchvision.datasets.%s(root, train=True, transform=None, '
                        'target_transform=None, download=False): items (a 32x32 RGB image, int '
                        'label) from the pickled batches, read without running pickle (Gnn '
                        'downloads nothing).')


CIFAR10 = _cifar_class(Gnn.CIFAR10)
CIFAR100 = _cifar_class(Gnn.CIFAR100)


@override
class FakeData(Gnn.FakeData):
    """torchvision.datasets.FakeData(size=1000, image_size=(3, 224, 224),
    num_classes=10, transform=None, target_transform=None, random_offset=0)."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None,
                 target_transform=None, random_offset=0):
        from gi.repository import GLib
        props = dict(size=int(size), image_size=GLib.Variant('ax', [int(v) for v in image_size]),
                     num_classes=int(num_classes), random_offset=int(random_offset))
        self._init_vision(Gnn.FakeData, props, transform, target_transform)

    @property
    def size(self):
        return self.props.size

    @property
    def image_size(self):
        return tuple(self.props.image_size.unpack()) if self.props.image_size else (3, 224, 224)

    @property
    def num_classes(self):
        return self.props.num_classes


IMG_EXTENSIONS = ('.jpg', '.jpeg', '.png', '.ppm', '.bmp', '.pgm', '.tif', '.tiff', '.webp')


def default_loader(path):
    """torchvision's default_loader: the image at `path`, in RGB."""
    image = open_image(path)
    return image if image.mode == 'RGB' else image.convert('RGB')


pil_loader = default_loader


def _loaded(value, path):
    try:
        return _to_result(value)
    except TypeError:
        raise TypeError('the loader returned a %s for %s; expected an image, an array or a '
                        'tensor' % (type(value).__name__, path)) from None


class _FolderMixin(object):
    """The protocol DatasetFolder and ImageFolder share."""

    def _init_folder(self, base, root, loader, extensions, transform, target_transform,
                     is_valid_file):
        if extensions is not None and is_valid_file is not None:
            raise ValueError('Both extensions and is_valid_file cannot be None or not None at '
                             'the same time')
        self._loader = loader
        self._is_valid = is_valid_file
        props = dict(root=os.fsdecode(os.path.expanduser(os.fspath(root))))
        if isinstance(extensions, str):
            extensions = (extensions,)
        if extensions is not None:
            props['extensions'] = list(extensions)
        elif is_valid_file is not None:
            props['extensions'] = []     # torchvision's extensions=None: none to name
        self._init_vision(base, props, transform, target_transform)

    @property
    def loader(self):
        return self._loader or default_loader

    @property
    def extensions(self):
        ext = self.props.extensions
        return tuple(ext) if ext else None

    @property
    def samples(self):
        targets = self.targets
        return [(self.get_path(i), targets[i]) for i in range(len(targets))]

    @property
    def targets(self):
        return [int(v) for v in self.get_targets().numpy()]

    @property
    def imgs(self):
        return self.samples

    def find_classes(self, directory):
        classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
        if not classes:
            raise FileNotFoundError("Couldn't find any class folder in %s." % directory)
        return classes, {c: i for i, c in enumerate(classes)}


def _python_folder(base, gtype_name):
    """A DatasetFolder class whose loader and is_valid_file are Python
    callables (a GType of its own: C calls them as vfuncs)."""

    class PythonFolder(base):
        __gtype_name__ = gtype_name

        def _load(self, path):
            return _loaded(self._loader(path), path)

        def _valid(self, path):
            if self._is_valid is None:
                return base.do_is_valid_file(self, path)
            return bool(self._is_valid(path))

        do_load = trampoline(_load, 'loader')
        do_is_valid_file = _valid

    PythonFolder.__name__ = PythonFolder.__qualname__ = base.__name__
    return PythonFolder


@override
class DatasetFolder(_FolderMixin, Gnn.DatasetFolder):
    """torchvision.datasets.DatasetFolder(root, loader, extensions=None,
    transform=None, target_transform=None, is_valid_file=None)."""

    __module__ = OVERRIDE_MODULE

    def __new__(cls, *args, **kwargs):
        if cls is DatasetFolder and (_arg(args, kwargs, 1, 'loader') not in (None, default_loader)
                                     or _arg(args, kwargs, 5, 'is_valid_file') is not None):
            cls = _PythonDatasetFolder
        return super().__new__(cls)

    def __init__(self, root, loader, extensions=None, transform=None, target_transform=None,
                 is_valid_file=None):
        self._init_folder(Gnn.DatasetFolder, root, None if loader is default_loader else loader,
                          extensions, transform, target_transform, is_valid_file)


@override
class ImageFolder(Gnn.ImageFolder):   # DatasetFolder's override (_FolderMixin) is its parent
    """torchvision.datasets.ImageFolder(root, transform=None,
    target_transform=None, loader=default_loader, is_valid_file=None):
    images decoded in C (GdkPixbuf), in the loader's workers."""

    __module__ = OVERRIDE_MODULE

    def __new__(cls, *args, **kwargs):
        if cls is ImageFolder and (_arg(args, kwargs, 3, 'loader') not in (None, default_loader)
                                   or _arg(args, kwargs, 4, 'is_valid_file') is not None):
            cls = _PythonImageFolder
        return super().__new__(cls)

    def __init__(self, root, transform=None, target_transform=None, loader=default_loader,
                 is_valid_file=None):
        self._init_folder(Gnn.ImageFolder, root, None if loader is default_loader else loader,
                          None, transform, target_transform, is_valid_file)


def _arg(args, kwargs, position, name):
    return args[position] if len(args) > position else kwargs.get(name)


_PythonDatasetFolder = _python_folder(DatasetFolder, 'GnnPyDatasetFolder')
_PythonImageFolder = _python_folder(ImageFolder, 'GnnPyImageFolder')

for _name, _value in (('MNIST', MNIST), ('FashionMNIST', FashionMNIST), ('KMNIST', KMNIST),
                      ('CIFAR10', CIFAR10), ('CIFAR100', CIFAR100),
                      ('FakeData', FakeData), ('ImageFolder', ImageFolder),
                      ('DatasetFolder', DatasetFolder), ('VisionDataset', VisionDataset)):
    setattr(datasets, _name, _value)
datasets.folder = type(datasets)('Gnn.vision.datasets.folder', 'torchvision.datasets.folder.')
for _name, _value in (('default_loader', default_loader), ('pil_loader', pil_loader),
                      ('IMG_EXTENSIONS', IMG_EXTENSIONS), ('ImageFolder', ImageFolder),
                      ('DatasetFolder', DatasetFolder)):
    setattr(datasets.folder, _name, _value)
