# _module_maps.py: torch's module._modules, ._parameters and ._buffers as
# live mappings over the registry (programs read them, and replace layers
# with model._modules['fc'] = nn.Linear(...)): reading, assigning and
# deleting go through the registry's calls, so the three maps stay the
# only place children live.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections.abc as abc

from ._gi import Gnn
from ._module import Module


class _RegistryMap(abc.MutableMapping):
    """One of a module's three maps, in registration order."""

    def __init__(self, module, kind):
        self._module = module
        self._kind = kind

    def __iter__(self):
        return iter(self._module._names(self._kind))

    def __len__(self):
        return len(self._module._names(self._kind))

    def __contains__(self, name):
        return name in self._module._names(self._kind)

    def __getitem__(self, name):
        if name not in self:
            raise KeyError(name)
        return Gnn.Module.get_child(self._module, name)

    def __setitem__(self, name, value):
        register = {'modules': Module.register_module, 'parameters': Module.register_parameter,
                    'buffers': Module.register_buffer}[self._kind]
        if name in self:
            setattr(self._module, name, value)     # replaces it where it is
        else:
            register(self._module, name, value)

    def __delitem__(self, name):
        if name not in self:
            raise KeyError(name)
        Gnn.Module.delete_child(self._module, name)

    def __repr__(self):
        return 'OrderedDict(%r)' % list(self.items())


for _kind in ('modules', 'parameters', 'buffers'):
    setattr(Module, '_' + _kind,
            property(lambda self, kind=_kind: _RegistryMap(self, kind),
                     doc="torch's module._%s: a live mapping over the registry" % _kind))
