"""gnn.nn.modules.module: torch.nn.modules.module — Module and the global
forward hooks."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, names=('Module', 'register_module_forward_pre_hook',
                                'register_module_forward_hook'))
