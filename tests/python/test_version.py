#!/usr/bin/python3
# test_version.py: the version of the library in use, from Python: the
# runtime query agrees with the compile-time constants, check_version
# follows GLib's rule, and gnn.__version__ is torch.__version__'s string.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402
import gnn  # noqa: E402
import torch  # noqa: E402


class VersionTest(unittest.TestCase):

    def test_runtime_is_compile_time(self):
        self.assertEqual((Gnn.get_major_version(), Gnn.get_minor_version(),
                          Gnn.get_micro_version()),
                         (Gnn.MAJOR_VERSION, Gnn.MINOR_VERSION, Gnn.MICRO_VERSION))
        self.assertEqual('%d.%d.%d' % (Gnn.MAJOR_VERSION, Gnn.MINOR_VERSION, Gnn.MICRO_VERSION),
                         Gnn.VERSION_S)

    def test_check_version(self):
        major, minor, micro = Gnn.MAJOR_VERSION, Gnn.MINOR_VERSION, Gnn.MICRO_VERSION
        self.assertIsNone(Gnn.check_version(major, minor, micro))
        self.assertIsNone(Gnn.check_version(major, 0, 0))
        self.assertEqual(Gnn.check_version(major, minor, micro + 1),
                         'Gnn version too old (micro mismatch)')
        self.assertEqual(Gnn.check_version(major + 1, 0, 0),
                         'Gnn version too old (major mismatch)')

    def test_dunder_version(self):
        self.assertEqual(gnn.__version__, Gnn.VERSION_S)
        # a str, as torch's (whose TorchVersion is a str subclass)
        self.assertIsInstance(gnn.__version__, str)
        self.assertIsInstance(torch.__version__, str)
        self.assertEqual(gnn.__version__.count('.'), 2)


if __name__ == '__main__':
    unittest.main()
