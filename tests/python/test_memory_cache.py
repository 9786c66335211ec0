#!/usr/bin/env python3
"""The block cache's controls from Python: Gnn.set_cache_limit /
get_cache_limit / get_cache_size / empty_cache (C's gnn-memory.h)."""
import os
import unittest

import gi

gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402


# CI's sanitizer pass preloads libasan: the cache is off in that build, so
# that ASan sees every allocation (the C test tensor-cache skips there too).
@unittest.skipIf('libasan' in os.environ.get('LD_PRELOAD', ''), 'the cache is off under ASan')
class CacheControls(unittest.TestCase):
    def setUp(self):
        self.limit = Gnn.get_cache_limit()

    def tearDown(self):
        Gnn.set_cache_limit(self.limit)

    def test_default_limit(self):
        self.assertEqual(self.limit, 512 << 20)

    def test_freed_large_blocks_are_kept_then_emptied(self):
        Gnn.empty_cache()
        self.assertEqual(Gnn.get_cache_size(), 0)
        t = Gnn.Tensor.zeros([8 << 20], Gnn.DType.F32)   # 32 MiB: a large block
        del t
        held = Gnn.get_cache_size()
        self.assertGreaterEqual(held, 32 << 20)
        self.assertLessEqual(held, Gnn.get_cache_limit())
        Gnn.empty_cache()
        self.assertEqual(Gnn.get_cache_size(), 0)

    def test_lowering_the_limit_frees_the_excess(self):
        t = Gnn.Tensor.zeros([8 << 20], Gnn.DType.F32)
        del t
        Gnn.set_cache_limit(1 << 20)
        self.assertEqual(Gnn.get_cache_limit(), 1 << 20)
        self.assertLessEqual(Gnn.get_cache_size(), 1 << 20)
        Gnn.set_cache_limit(0)   # off: nothing is kept
        t = Gnn.Tensor.zeros([8 << 20], Gnn.DType.F32)
        del t
        self.assertEqual(Gnn.get_cache_size(), 0)


if __name__ == '__main__':
    unittest.main()
