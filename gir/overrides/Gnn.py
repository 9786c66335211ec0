# Gnn.py: Pythonic protocol for the Gnn typelib (PyGObject override).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

from ..importer import modules

Gnn = modules['Gnn']._introspection_module

__all__ = []
