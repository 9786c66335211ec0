"""gnn.backends: torch.backends as a CPU build of torch answers it."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='backends')

from . import cudnn  # noqa: E402,F401
