"""gnn.nn.init: torch.nn.init's initializers (in place, from the default
generator unless given one)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn.init')
