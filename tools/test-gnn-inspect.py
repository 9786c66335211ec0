# Tests gnn-inspect: files written here with json + struct (no Gnn needed),
# the table, --tree, totals, metadata, and clean failures on bad files; a
# model file (its architecture, --run, --summary), a torch file.
#
#   test-gnn-inspect.py path/to/gnn-inspect tests/io/corpus
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv[1]
CORPUS = sys.argv[2]
DTYPE_SIZE = {'F32': 4, 'F64': 8, 'I64': 8, 'U8': 1}


def write_safetensors(path, tensors, metadata=None):
    header, pos = {}, 0
    if metadata:
        header['__metadata__'] = metadata
    for name, dtype, shape in tensors:
        n = DTYPE_SIZE[dtype]
        for s in shape:
            n *= s
        header[name] = {'dtype': dtype, 'shape': shape, 'data_offsets': [pos, pos + n]}
        pos += n
    h = json.dumps(header).encode()
    h += b' ' * (-len(h) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(h)) + h + bytes(pos))


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=30)


class TestInspect(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, 'model.safetensors')
        write_safetensors(cls.path, [
            ('0.weight', 'F32', [8, 4]),
            ('0.bias', 'F32', [8]),
            ('1.running_mean', 'F64', [8]),
            ('1.num_batches_tracked', 'I64', []),
            ('head.fc.weight', 'U8', [2, 8]),
        ], {'format': 'pt', 'epoch': '3'})

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_table(self):
        r = run(self.path)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0].split(), ['NAME', 'DTYPE', 'SHAPE', 'BYTES'])
        self.assertEqual(lines[1].split(), ['0.weight', 'F32', '[8,', '4]', '128'])
        self.assertEqual(lines[4].split(), ['1.num_batches_tracked', 'I64', '[]', '8'])
        self.assertEqual(lines[5].split(), ['head.fc.weight', 'U8', '[2,', '8]', '16'])
        self.assertIn('5 tensors, 65 parameters, 248 bytes', r.stdout)
        self.assertIn('metadata:\n  format: pt\n  epoch: 3', r.stdout)

    def test_tree(self):
        r = run('--tree', self.path)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l.rstrip() for l in r.stdout.splitlines()]
        self.assertEqual(lines[0].split(), ['NAME', 'DTYPE', 'SHAPE', 'PARAMS'])
        self.assertEqual(lines[1].split(), ['0', '40'])
        self.assertTrue(lines[2].startswith('  weight'))
        self.assertEqual(lines[2].split(), ['weight', 'F32', '[8,', '4]', '32'])
        self.assertEqual(lines[4].split(), ['1', '9'])
        self.assertEqual(lines[7].split(), ['head', '16'])
        self.assertEqual(lines[8].split(), ['fc', '16'])
        self.assertTrue(lines[9].startswith('    weight'))
        self.assertIn('65 parameters', r.stdout)

    def test_tree_of_a_very_deep_name(self):
        # 200,000 dots used to overflow the C stack; the tree stops nesting
        # at 64 levels and the rest of the name stays one leaf.
        path = os.path.join(self.tmp.name, 'deep.safetensors')
        name = '.'.join(['a'] * 200001)
        write_safetensors(path, [(name, 'F32', [2]), ('b.c', 'F32', [])])
        r = run('--tree', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 1 + 64 + 2 + 2)
        self.assertEqual(lines[1].split(), ['a', '2'])
        self.assertTrue(lines[64].strip().startswith('a.a.a'))
        self.assertEqual(len(lines[64].split()[0]), len(name) - 2 * 63)
        self.assertIn('2 tensors, 3 parameters', r.stdout)
        self.assertLess(len(r.stdout), 2 * len(name))

    def test_bad_files_fail_cleanly(self):
        expected = {}
        with open(os.path.join(CORPUS, 'EXPECTED')) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    name, sub = line.rstrip('\n').split('\t', 1)
                    expected[name] = sub
        for name, sub in expected.items():
            path = os.path.join(CORPUS, name + '.safetensors')
            r = run(path)
            self.assertEqual(r.returncode, 1, name)
            self.assertEqual(r.stdout, '', name)
            self.assertTrue(r.stderr.startswith('gnn-inspect: ' + path), r.stderr)
            self.assertIn(sub, r.stderr, name)

    def test_optimizer_state_is_not_parameters(self):
        path = os.path.join(self.tmp.name, 'ckpt.safetensors')
        write_safetensors(path, [('model.w', 'F32', [4]), ('optimizer.state.0.exp_avg', 'F32', [4]),
                                 ('optimizer.state.0.exp_avg_sq', 'F32', [4])])
        r = run(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('3 tensors, 4 parameters, 48 bytes', r.stdout)
        self.assertIn('optimizer state: 8 values in 2 tensors', r.stdout)

    def write_model(self):
        """Sequential(Linear(4, 3), ReLU(), Linear(3, 2)) as a model file."""
        linear = lambda i, o, name: {'parent': 0, 'name': name, 'type': 'GnnLinear',
                                     'properties': {'in-features': i, 'out-features': o}}
        model = {'format': 'gnn.model', 'version': 1, 'modules': [
            {'type': 'GnnSequential'}, linear(4, 3, '0'),
            {'parent': 0, 'name': '1', 'type': 'GnnReLU'}, linear(3, 2, '2')]}
        path = os.path.join(self.tmp.name, 'mlp.safetensors')
        write_safetensors(path, [('0.weight', 'F32', [3, 4]), ('0.bias', 'F32', [3]),
                                 ('2.weight', 'F32', [2, 3]), ('2.bias', 'F32', [2])],
                          {'gnn.model': json.dumps(model)})
        return path

    def test_model_file(self):
        path = self.write_model()
        r = run(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith('Sequential(\n  (0): Linear(in_features=4, '
                                            'out_features=3, bias=True)\n  (1): ReLU()\n'), r.stdout)
        self.assertIn('model parameters: 23 (23 trainable)\nbuffers: 0', r.stdout)
        self.assertNotIn('NAME', r.stdout)
        r = run('--tensors', path)
        self.assertIn('0.weight', r.stdout)
        self.assertIn('4 tensors, 23 parameters, 92 bytes', r.stdout)

    def test_run_and_summary(self):
        path = self.write_model()
        r = run('--run', '--input-shape', '5,4', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r'output shape \[5, 2\], forward [0-9.]+ ms')
        r = run('--summary', '-i', '5,4', path)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [l.split() for l in r.stdout.splitlines()]
        self.assertIn(['Sequential', '[5,', '2]', '--'], rows)
        self.assertIn(['├─Linear:', '1-1', '[5,', '3]', '15'], rows)
        self.assertIn(['├─ReLU:', '1-2', '[5,', '3]', '--'], rows)
        self.assertIn(['├─Linear:', '1-3', '[5,', '2]', '8'], rows)
        self.assertIn('Total params: 23', r.stdout)
        # a wrong input shape is the forward's error, not a crash
        r = run('--run', '-i', '5,7', path)
        self.assertEqual(r.returncode, 1)
        self.assertIn('the forward pass failed: mat1 and mat2 shapes cannot be multiplied', r.stderr)
        r = run('--run', path)
        self.assertEqual(r.returncode, 2)
        self.assertIn('--input-shape', r.stderr)
        r = run('--run', '-i', '5,4', self.path)
        self.assertEqual(r.returncode, 1)
        self.assertIn('not a model file', r.stderr)

    def test_torch_file(self):
        path = os.path.join(os.path.dirname(CORPUS), 'torch-corpus', 'state-dict.pth')
        r = run(path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('1.num_batches_tracked', r.stdout)
        self.assertIn('7 tensors, 17 parameters', r.stdout)
        r = run(os.path.join(os.path.dirname(CORPUS), 'torch-corpus', 'os-system.pth'))
        self.assertEqual(r.returncode, 1)
        self.assertIn('unsupported global posix.system', r.stderr)

    def test_missing_file(self):
        r = run(os.path.join(self.tmp.name, 'nope.safetensors'))
        self.assertEqual(r.returncode, 1)
        self.assertIn('No such file', r.stderr)

    def test_usage(self):
        r = run()
        self.assertEqual(r.returncode, 2)
        self.assertIn('expected one FILE', r.stderr)


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1])
