# _generator.py: torch.Generator's protocol over Gnn.Generator, and
# torch.default_generator (the library's default generator, which
# Gnn.manual_seed seeds and everything given no generator draws from).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

from gi.repository import GLib

from . import _dtype
from ._gi import OVERRIDE_MODULE, Gnn, export, override


@override
class Generator(Gnn.Generator):
    """torch.Generator(device='cpu'): manual_seed(s) returns the generator,
    initial_seed(), seed(), get_state() / set_state() as a uint8 tensor."""

    __module__ = OVERRIDE_MODULE

    def __init__(self, device='cpu', **properties):
        kind, _ = _dtype.parse_device('cpu' if device is None else device)
        if kind != 'cpu':
            raise RuntimeError('Device type %s is not supported for torch.Generator() api.'
                               % kind.upper())
        properties.setdefault('seed', 67280421310721)    # torch's default seed
        super().__init__(**properties)

    @property
    def device(self):
        from ._tensor import device
        return device('cpu')

    def manual_seed(self, seed):
        Gnn.Generator.manual_seed(self, int(seed) & 0xFFFFFFFFFFFFFFFF)
        return self

    def initial_seed(self):
        return self.get_seed()

    def seed(self):
        """Reseeds from system randomness; returns the seed."""
        value = int.from_bytes(os.urandom(8), 'little') & 0x7FFFFFFFFFFFFFFF
        Gnn.Generator.manual_seed(self, value)
        return value

    def get_state(self):
        data = Gnn.Generator.get_state(self).get_data()
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(data), Gnn.DType.U8, [len(data)])

    def set_state(self, new_state):
        if isinstance(new_state, Gnn.Tensor):
            new_state = Gnn.Tensor.get_bytes(new_state)
        elif isinstance(new_state, (bytes, bytearray)):
            new_state = GLib.Bytes.new(bytes(new_state))
        Gnn.Generator.set_state(self, new_state)
        return self

    def __repr__(self):
        return '<Gnn.Generator object at %#x>' % id(self)


export(Gnn.Generator.get_default(), 'default_generator')
