#!/usr/bin/python3
# test_checkpoint_layout.py: Gnn.load of a checkpoint whose layout entry
# (metadata 'gnn.checkpoint', written by Gnn.save) is malformed raises one
# clear ValueError — never a parser's own exception: a StopIteration for
# '{}' made list(map(Gnn.load, files)) stop early, silently — and the
# 'gnn.' metadata names are Gnn's own: a user's entry there (which Gnn.load
# took for the layout, returning its value instead of the tensors) is
# refused when saving.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import tempfile
import unittest

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

from gi.module import get_introspection_module  # noqa: E402

# the C save, which writes any metadata: a file another writer made
_c_save = get_introspection_module('Gnn').StateDict.save

MALFORMED = {
    'empty object': '{}',
    'array': '[]',
    'number': '5',
    'not JSON': '{"dict": [',
    'unknown kind': '{"bogus": 1}',
    'two kinds': '{"tensor": "w", "value": 3}',
    'missing tensor': '{"tensor": "nope"}',
    'dict not pairs': '{"dict": 5}',
    'dict list key': '{"dict": [[[1], {"value": 2}]]}',
    'empty entry in a list': '{"list": [{}]}',
    'list not a list': '{"list": {"value": 1}}',
    'bad float': '{"float": "abc"}',
    'value is an object': '{"value": {"a": 1}}',
    'state dict of values': '{"state_dict": [["a", {"value": 1}]]}',
    'state dict metadata': '{"state_dict": [["a", {"tensor": "w"}]], "metadata": 5}',
    'deep JSON': '[' * 100000 + ']' * 100000,
    'deep layout': '{"list": [' * 300 + '{"value": 1}' + ']}' * 300,
}


class Layout(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.state = Gnn.StateDict()
        self.state['w'] = Gnn.ones(2)

    def file(self, layout):
        path = os.path.join(self.dir.name, 'f%d.safetensors' % len(os.listdir(self.dir.name)))
        _c_save(self.state, path, {'gnn.checkpoint': layout})
        return path

    def test_malformed_layouts_are_one_clear_error(self):
        for name, layout in MALFORMED.items():
            with self.subTest(layout=name):
                with self.assertRaises(ValueError) as caught:
                    Gnn.load(self.file(layout))
                self.assertIn("the checkpoint layout of this file (metadata 'gnn.checkpoint') "
                              "is damaged", str(caught.exception))

    def test_map_over_files_does_not_stop_early(self):
        # the case: StopIteration from the first file ended map()
        files = [self.file('{}'), self.file('{"dict": [["w", {"tensor": "w"}]]}')]
        with self.assertRaises(ValueError):
            list(map(Gnn.load, files))
        self.assertEqual(list(Gnn.load(files[1])), ['w'])

    def test_round_trip_still_works(self):
        path = os.path.join(self.dir.name, 'ckpt.safetensors')
        model = Gnn.nn.Linear(2, 2)
        checkpoint = {'epoch': 3, 'model': model.state_dict(), 'loss': float('inf'),
                      'hist': [1, 2.5, None], 'pair': ('a', True)}
        Gnn.save(checkpoint, path, metadata={'note': 'mine'})
        back = Gnn.load(path)
        self.assertEqual(back['epoch'], 3)
        self.assertEqual(back['loss'], float('inf'))
        self.assertEqual(back['hist'], [1, 2.5, None])
        self.assertEqual(back['pair'], ('a', True))
        self.assertEqual(back['model']['weight'].tolist(), model.weight.tolist())
        layout = json.loads(Gnn.StateDict.load(path).get_metadata('gnn.checkpoint'))
        self.assertIn('dict', layout)

    def test_reserved_metadata_names(self):
        # the case: a user entry named like the layout was read as it
        path = os.path.join(self.dir.name, 'm.safetensors')
        for save in (lambda: Gnn.save({'w': Gnn.ones(2)}, path,
                                      metadata={'gnn.checkpoint': '{"value": 5}'}),
                     lambda: Gnn.save({'epoch': 1}, path, metadata={'gnn.other': 'x'}),
                     lambda: self.state.save(path, {'gnn.checkpoint': 'x'}),
                     lambda: Gnn.nn.Linear(2, 2).save(path, {'gnn.x': 'y'})):
            with self.assertRaisesRegex(ValueError, "reserved for Gnn's own entries"):
                save()
            self.assertFalse(os.path.exists(path))
        Gnn.save({'w': Gnn.ones(2)}, path, metadata={'gnn-mine': 'ok', 'gnnx': 'ok'})
        self.assertEqual(list(Gnn.load(path)), ['w'])

    def test_self_holding_checkpoint(self):
        ckpt = {}
        ckpt['self'] = ckpt
        with self.assertRaisesRegex(ValueError, 'nested more than'):
            Gnn.save(ckpt, os.path.join(self.dir.name, 'loop.safetensors'))


if __name__ == '__main__':
    unittest.main(verbosity=2)
