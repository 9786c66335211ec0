#!/usr/bin/env python3
# Generates tests/io/idx-corpus/*: seeds for the IDX fuzz harness
# (tests/c/io/fuzz-idx.c). Each seed is two little-endian bytes giving the
# length of the images file, the images file, then the labels file.
#
#   /usr/bin/python3 tests/io/make-idx-corpus.py tests/io/idx-corpus
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import gzip
import os
import struct
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'idx-corpus')
os.makedirs(out, exist_ok=True)


def idx(dims, payload):
    return bytes([0, 0, 8, len(dims)]) + b''.join(struct.pack('>I', d) for d in dims) + payload


def seed(name, images, labels):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(struct.pack('<H', len(images)) + images + labels)


images = idx([2, 2, 3], bytes(range(12)))
labels = idx([2], bytes([3, 7]))
seed('valid', images, labels)
seed('valid-gzip', gzip.compress(images, mtime=0), gzip.compress(labels, mtime=0))
seed('count-mismatch', images, idx([3], bytes([1, 2, 3])))
seed('bad-magic', b'\x01\x00\x08\x03' + images[4:], labels)
seed('wrong-type', bytes([0, 0, 0x0d, 3]) + images[4:], labels)
seed('truncated-data', images[:-1], labels)
seed('trailing-data', images + b'\x00', labels)
seed('huge-dims', idx([0xffffffff, 0xffffffff, 0xffffffff], b''), labels)
seed('bad-gzip', b'\x1f\x8b\x08\x00garbage', labels)
