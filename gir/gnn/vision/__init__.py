"""gnn.vision: torchvision's essentials (import gnn.vision as torchvision;
from gnn.vision import datasets, transforms). The classes live in C; each
sub-module mirrors what the override registers under Gnn.vision.<name>."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='vision')

from . import datasets, models, transforms, utils  # noqa: E402,F401
