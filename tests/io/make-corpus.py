#!/usr/bin/env python3
# Generates tests/io/corpus/*.safetensors: malformed safetensors files, one
# per validation rule, each listed in tests/io/corpus/EXPECTED with the error
# substring the loader must report ("name<TAB>substring"). Run once and commit
# the output; test-io-corpus feeds every file to the loader, and the fuzzer
# uses the directory as its seed corpus.
#
#   /usr/bin/python3 tests/io/make-corpus.py tests/io/corpus
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
os.makedirs(out, exist_ok=True)
expected = []


def raw(name, blob, substring):
    with open(os.path.join(out, name + '.safetensors'), 'wb') as f:
        f.write(blob)
    expected.append((name, substring))


def header_bytes(header):
    if isinstance(header, (dict, list)):
        header = json.dumps(header)
    if isinstance(header, str):
        header = header.encode('utf-8')
    return header


def st(name, header, data, substring):
    h = header_bytes(header)
    raw(name, struct.pack('<Q', len(h)) + h + data, substring)


def f32(shape, begin, end):
    return {'dtype': 'F32', 'shape': shape, 'data_offsets': [begin, end]}


raw('empty', b'', 'too few for the 8-byte header size')
raw('short-size', b'\x10\x00\x00', 'too few for the 8-byte header size')
raw('header-too-large', struct.pack('<Q', 100_000_001) + b'{}', 'is too large')
raw('header-huge', struct.pack('<Q', 2**64 - 1) + b'{}', 'is too large')
raw('header-past-eof', struct.pack('<Q', 64) + b'{"a": 1}', 'runs past the end')
st('not-json', b'this is not json', b'', 'not a JSON object')
st('truncated-json', b'{"a": {"dtype": "F32"', b'', 'header is not JSON')
st('not-utf8', b'{"\xff\xfe": 1}', b'', 'not valid UTF-8')
st('nul-in-header', b'{"a\x00": 1}', b'', 'not valid UTF-8')
st('root-array', [1, 2], b'', 'not a JSON object')
st('root-string', '"x"', b'', 'not a JSON object')
st('deep-nesting', '{"a": ' + '[' * 1000 + ']' * 1000 + '}', b'', 'nests deeper than')
st('entry-not-object', {'a': [1, 2]}, b'', 'entry of tensor "a" is not an object')
st('missing-dtype', {'a': {'shape': [1], 'data_offsets': [0, 4]}}, bytes(4),
   'tensor "a" has no dtype')
st('dtype-not-string', {'a': {'dtype': 3, 'shape': [1], 'data_offsets': [0, 4]}}, bytes(4),
   'tensor "a" has no dtype')
st('unknown-dtype', {'a': {'dtype': 'F33', 'shape': [1], 'data_offsets': [0, 4]}}, bytes(4),
   'tensor "a" has unknown dtype "F33"')
st('unsupported-dtype', {'a': {'dtype': 'U16', 'shape': [2], 'data_offsets': [0, 4]}}, bytes(4),
   'tensor "a" has dtype U16, which Gnn does not support')
st('missing-shape', {'a': {'dtype': 'F32', 'data_offsets': [0, 4]}}, bytes(4),
   'tensor "a" has no shape')
st('negative-shape', {'a': f32([2, -1], 0, 4)}, bytes(4),
   'shape of tensor "a" has a negative size -1 at dimension 1')
st('float-shape', {'a': f32([1.5], 0, 4)}, bytes(4),
   'shape of tensor "a" has a size that is not an integer')
st('overflow-numel', {'a': f32([2**40, 2**40], 0, 4)}, bytes(4),
   'shape of tensor "a" overflows')
st('overflow-bytes', {'a': f32([2**31, 2**31], 0, 4)}, bytes(4),
   'shape of tensor "a" overflows')
st('too-many-dims', {'a': f32([1] * 17, 0, 4)}, bytes(4),
   'tensor "a" has 17 dimensions')
st('offsets-missing', {'a': {'dtype': 'F32', 'shape': [1]}}, bytes(4),
   'data_offsets of tensor "a" are not [begin, end]')
st('offsets-three', {'a': {'dtype': 'F32', 'shape': [1], 'data_offsets': [0, 4, 8]}},
   bytes(8), 'data_offsets of tensor "a" are not [begin, end]')
st('offsets-negative', {'a': f32([1], -4, 0)}, bytes(4),
   'data_offsets of tensor "a" are not [begin, end]')
st('offsets-reversed', {'a': f32([0], 4, 0)}, bytes(4),
   'data_offsets of tensor "a" end before they begin')
st('size-mismatch', {'a': f32([2, 2], 0, 12)}, bytes(12),
   'tensor "a" has 12 bytes (data_offsets [0, 12]) but shape [2, 2] of F32 needs 16')
st('offsets-overlap', {'a': f32([2], 0, 8), 'b': f32([2], 4, 12)}, bytes(12),
   'data_offsets of tensor "b" [4, 12] overlap tensor "a" [0, 8]')
st('offsets-gap', {'a': f32([1], 0, 4), 'b': f32([1], 8, 12)}, bytes(12),
   'bytes [4, 8) before tensor "b" belong to no tensor')
st('offsets-not-at-zero', {'a': f32([1], 4, 8)}, bytes(8),
   'bytes [0, 4) before tensor "a" belong to no tensor')
st('data-not-covered', {'a': f32([1], 0, 4)}, bytes(8),
   'do not cover the data: the tensors end at 4 of 8 bytes')
st('data-past-eof', {'a': f32([4], 0, 16)}, bytes(8),
   'past the end of the data (8 bytes)')
st('duplicate-name',
   b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, '
   b'"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}', bytes(8),
   'has the name "a" twice')
st('duplicate-field',
   b'{"a": {"dtype": "F32", "dtype": "F64", "shape": [1], "data_offsets": [0, 4]}}', bytes(4),
   'has the name "dtype" twice')
st('metadata-not-object', {'__metadata__': 'x'}, b'', '__metadata__ is not an object')
st('metadata-not-string', {'__metadata__': {'k': 1}}, b'',
   '__metadata__ value of "k" is not a string')
# JSON escapes that decode to invalid UTF-8, and a second top-level value
# (json-glib accepts one after the other; the format has one object).
st('lone-surrogate', b'{"a\\ud800b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
   bytes(4), 'lone surrogate \\ud800')
st('lone-surrogate-metadata', b'{"__metadata__": {"k": "\\udc00x"}}', b'', 'lone surrogate \\udc00')
st('nul-escape', b'{"a\\u0000b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
   bytes(4), 'a NUL character')
st('bad-escape', b'{"__metadata__": {"k": "\\u12"}}', b'', 'malformed \\u escape')
st('two-objects', b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}} {}', bytes(4),
   'data after its JSON object')
# json-glib skips comments, which JSON does not have; what it skips could hide
# a bracket from the structure check, and a second top-level value got
# through and leaked (found by the fuzzer).
st('comment-hides-bracket',
   b'{"a": {"dtype": "F32", "shape": [1/, "data_offsets": [0, /]}} {}', b'\0\0\0\0',
   "'/' outside a string")
st('hash-comment', b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}} # }',
   bytes(4), "'#' outside a string")
st('c-comment', b'{"a": /* x */ {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
   bytes(4), "'/' outside a string")

# Other json-glib extensions that could hide a quote or a bracket, or cut a
# name short: single-quoted strings (a '"' inside one started a string for
# the structure check, which then let a 2-million-deep nesting reach the
# recursive parser), octal escapes ("\0" decodes to NUL), raw control
# characters in strings, and a header whose string or object never ends.
st('single-quote-hides-quote', b"{'\"': " + b'[' * 1000 + b']' * 1000 + b'}', b'',
   "''' outside a string")
st('octal-escape', b'{"w\\0evil": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
   bytes(4), 'an escape that JSON does not have')
st('control-in-string', b'{"a\tb": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
   bytes(4), 'a control character (0x09)')
st('unterminated-string', b'{"a": {"dtype": "F32', b'', 'unterminated string')
st('unclosed-object', b'{"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}', bytes(4),
   'is not closed')

with open(os.path.join(out, 'EXPECTED'), 'w') as f:
    f.write('# file (without .safetensors)\terror substring; generated by make-corpus.py\n')
    for name, substring in expected:
        f.write('%s\t%s\n' % (name, substring))
print('%d files in %s' % (len(expected), out))
