"""gnn.backends.cudnn: torch.backends.cudnn of a CPU build (its flags are
accepted and have no effect)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='backends.cudnn')
