"""gnn.nn.modules: torch.nn.modules, the module classes of gnn.nn."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn', derived=('Module',), classes_only=True)
