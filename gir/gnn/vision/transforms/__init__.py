"""gnn.vision.transforms: torchvision.transforms (the classes the override registers
under Gnn.vision.transforms)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='vision.transforms')

from . import functional  # noqa: E402,F401
