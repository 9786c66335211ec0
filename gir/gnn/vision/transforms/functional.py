"""gnn.vision.transforms.functional: torchvision.transforms.functional (the
functions the override registers under Gnn.vision.transforms.functional)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='vision.transforms.functional')
