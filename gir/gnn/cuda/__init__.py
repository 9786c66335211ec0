"""gnn.cuda: torch.cuda as a CPU build of torch answers it (is_available()
is False)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='cuda')
