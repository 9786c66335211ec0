"""gnn.nn.utils: torch.nn.utils (gradient clipping, ...; rnn's helpers in
gnn.nn.utils.rnn)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn.utils')

from . import rnn  # noqa: E402,F401
