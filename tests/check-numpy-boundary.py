#!/usr/bin/env python3
# Keeps numpy at the Python package's boundary: the override computes
# nothing through numpy (every op, promotion rule and check is the C
# library's); numpy appears only where a numpy value crosses over —
# from_numpy / .numpy() memory sharing, numpy dtypes as arguments, arrays
# and numpy numbers in datasets, state dicts and checkpoints. A module of
# gir/gnn (private or public) touches numpy when it imports it or uses the
# package's lazy handles (_gi.np, _gi.require_numpy); only the modules
# listed here may, each for the reason given.
# Usage: check-numpy-boundary.py SOURCE_ROOT
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import ast
import os
import sys

ALLOWED = {
    '_gi.py': 'imports numpy lazily for the others (np, require_numpy)',
    '_numpy.py': 'from_numpy / .numpy(): memory shared with arrays',
    '_dtype.py': 'numpy dtypes as dtype arguments; arrays copied into tensors',
    '_data.py': 'dataset items that are arrays or numpy numbers',
    '_containers.py': 'arrays assigned as parameters',
    '_state.py': 'arrays in state dicts',
    '_optim_state.py': 'arrays in optimizer state dicts',
    '_checkpoint.py': 'arrays and numpy numbers in checkpoints',
    '_vision_image.py': "PIL images and arrays as transforms' inputs; np.asarray(image)",
}

HANDLES = {'np', 'require_numpy', 'numpy'}


def touches(path):
    """The lines of `path` that touch numpy."""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(a.name == 'numpy' or a.name.startswith('numpy.') for a in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.module and (node.module == 'numpy' or node.module.startswith('numpy.')):
                lines.append(node.lineno)
            elif any(a.name in HANDLES for a in node.names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in HANDLES and \
                isinstance(node.value, ast.Name) and node.value.id in ('_gi', 'gi_'):
            lines.append(node.lineno)
    return sorted(set(lines))


def main():
    package = os.path.join(sys.argv[1], 'gir', 'gnn')
    bad, seen = [], set()
    for folder, _, names in os.walk(package):
        for name in sorted(names):
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, package)
            lines = touches(path)
            if lines and rel in ALLOWED:
                seen.add(rel)
            elif lines:
                bad.append('%s:%s touches numpy; compute with the library (or add it to '
                           'ALLOWED with the boundary it serves)'
                           % (os.path.relpath(path, sys.argv[1]), ','.join(map(str, lines))))
    for rel in sorted(set(ALLOWED) - seen):
        bad.append('gir/gnn/%s is listed but no longer touches numpy: remove it from ALLOWED'
                   % rel)
    for line in bad:
        print(line)
    print('%d modules may touch numpy: %s' % (len(ALLOWED), ', '.join(sorted(ALLOWED))))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
