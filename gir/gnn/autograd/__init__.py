"""gnn.autograd: torch.autograd (grad modes, backward, Variable)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='autograd')
