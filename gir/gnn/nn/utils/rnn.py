"""gnn.nn.utils.rnn: torch.nn.utils.rnn's helpers (pad_sequence,
pack_padded_sequence, ...), registered by the recurrent layers; importable
before they land."""
# SPDX-License-Identifier: LGPL-2.1-or-later

import gnn._public as _public

_public.mirror(__name__, namespace='nn.utils.rnn')
