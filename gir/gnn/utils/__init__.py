"""gnn.utils: torch.utils (data)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='utils')

from . import data  # noqa: E402,F401
