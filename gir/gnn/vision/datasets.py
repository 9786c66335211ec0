"""gnn.vision.datasets: torchvision.datasets (the classes the override registers
under Gnn.vision.datasets)."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='vision.datasets')
