"""gnn.nn.functional: torch.nn.functional (import gnn.nn.functional as F)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn.functional')
