# safetensors errors seen from Python: GIO's codes for I/O failures, a
# FIFO refused without blocking, and messages that convert to a normal
# GLib.Error even when the file spells invalid UTF-8 ("\ud800" escapes,
# non-UTF-8 file names).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import struct
import tempfile
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gio, GLib, Gnn  # noqa: E402


def safetensors_bytes(header_json):
    h = header_json.encode('utf-8')
    return struct.pack('<Q', len(h)) + h + b'\0' * 4


class IoErrorTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_lone_surrogate_is_a_glib_error(self):
        # json.dumps keeps the escape as text: the header is valid UTF-8.
        header = '{"a\\ud800": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}'
        path = self.path('surrogate.safetensors')
        with open(path, 'wb') as f:
            f.write(safetensors_bytes(header))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load(path)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.FORMAT))
        self.assertIn('lone surrogate \\ud800', cm.exception.message)
        with self.assertRaises(GLib.Error):
            Gnn.StateDict.load_from_bytes(GLib.Bytes.new(safetensors_bytes(header)),
                                          Gnn.LoadFlags.NONE)

    def test_missing_file_is_not_found(self):
        path = self.path('missing.safetensors')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load(path)
        self.assertTrue(cm.exception.matches(Gio.io_error_quark(), Gio.IOErrorEnum.NOT_FOUND))
        self.assertIn(path, cm.exception.message)

    def test_fifo_is_refused(self):
        path = self.path('fifo.safetensors')
        os.mkfifo(path)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load(path)
        self.assertTrue(cm.exception.matches(Gio.io_error_quark(),
                                             Gio.IOErrorEnum.NOT_REGULAR_FILE))

    def test_save_onto_device_is_refused(self):
        sd = Gnn.StateDict.new()
        with self.assertRaises(GLib.Error) as cm:
            sd.save('/dev/null', None)
        self.assertTrue(cm.exception.matches(Gio.io_error_quark(),
                                             Gio.IOErrorEnum.NOT_REGULAR_FILE))
        self.assertTrue(os.path.exists('/dev/null'))

    def test_non_utf8_path_message(self):
        path = os.path.join(os.fsencode(self.dir.name), b'bad-\xff.safetensors')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StateDict.load(os.fsdecode(path))
        self.assertIn('bad-\\xff.safetensors', cm.exception.message)


if __name__ == '__main__':
    unittest.main()
