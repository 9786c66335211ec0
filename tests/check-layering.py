#!/usr/bin/env python3
# Keeps lib/ layered as docs/architecture.md draws it:
#  - every header inside lib/ is private and says so in its name (-private.h);
#  - a file may include another subsystem's private header only when
#    lib/internal-api.txt lists that (subsystem, header) pair (lib/core's
#    headers are for everyone);
#  - every listed pair points down the dependency picture, never up;
#  - no file calls a gnn_ function defined only in a subsystem above its own
#    (public or private: an include of the public gnn.h hides nothing), but
#    for the files KNOWN_UPCALLS lists until they move;
#  - the files of the folders in ACYCLIC call each other without a circle
#    (file A -> file B when A calls a function B defines).
# Usage: check-layering.py SOURCE_ROOT
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys

# Which subsystems each one may depend on (transitively closed below).
DEPENDS = {
    'core': [],
    'tensor': ['core'],
    'autograd': ['tensor'],
    'io': ['tensor'],
    'module': ['tensor', 'io'],
    'nn': ['module', 'autograd'],
    'optim': ['nn', 'io'],
    'data': ['tensor', 'io'],
    'distributed': ['module', 'autograd', 'data'],
    'vision': ['nn', 'data', 'io'],
    'train': ['optim', 'data'],
}

# Files that call up the house today, each to move beside what it calls
# (issue 29): the model and checkpoint files of lib/io reach into
# lib/module and lib/optim. A listed file that no longer calls up fails the
# test, so the list only shrinks.
KNOWN_UPCALLS = {
    'io/gnn-checkpoint.c',
    'io/gnn-checkpoint-load.c',
    'io/gnn-model-read.c',
    'io/gnn-model-write.c',
}

# Folders whose files must call each other without a circle (issue 29:
# lib/data was an 11-file circle).
ACYCLIC = ['data']

# Comments and string literals, where a function name is no call.
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)
# A definition: the name at the start of a line (GNU style, the type above).
DEFINITION = re.compile(r'^(gnn_\w+)\s*\(', re.M)
CALL = re.compile(r'\b(gnn_\w+)\s*\(')


def circles_of_calls(texts):
    """Problems for circles of calls between the files of an ACYCLIC folder."""
    problems = []
    for folder in ACYCLIC:
        files = {name: code for (sub, name), code in texts.items()
                 if sub == folder and name.endswith('.c')}
        owner = {}
        for name, code in files.items():
            for fn in DEFINITION.findall(code):
                owner.setdefault(fn, set()).add(name)
        edges = {}
        for name, code in files.items():
            for fn in set(CALL.findall(code)):
                owners = owner.get(fn, set())
                if len(owners) == 1 and name not in owners:
                    edges.setdefault(name, {}).setdefault(next(iter(owners)), []).append(fn)
        for circle in strongly_connected(edges):
            ties = [f'{a} -> {b} ({", ".join(sorted(fns)[:3])})'
                    for a in circle for b, fns in sorted(edges.get(a, {}).items()) if b in circle]
            problems.append(f'lib/{folder}/: a circle of calls between {len(circle)} files: '
                            + '; '.join(ties))
    return problems


def strongly_connected(edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def upcalls(texts):
    """Problems for calls from a subsystem to a function defined only in
    subsystems it may not depend on. @texts: {(sub, name): code}."""
    owners = {}
    for (sub, _), code in texts.items():
        for fn in DEFINITION.findall(code):
            owners.setdefault(fn, set()).add(sub)
    problems = []
    callers = set()
    for (sub, name), code in sorted(texts.items()):
        above = set()
        for fn in CALL.findall(code):
            subs = owners.get(fn, set())
            if not subs or sub in subs or 'core' in subs or subs & closure(sub):
                continue
            above.add(f'{fn} ({"/".join(sorted(subs))})')
        if not above:
            continue
        callers.add(f'{sub}/{name}')
        if f'{sub}/{name}' not in KNOWN_UPCALLS:
            problems.append(f'lib/{sub}/{name}: calls up the house: ' + ', '.join(sorted(above)))
    for known in sorted(KNOWN_UPCALLS - callers):
        problems.append(f'check-layering.py: KNOWN_UPCALLS lists {known}, which no longer calls '
                        f'up: remove it from the list')
    return problems


def closure(name, seen=None):
    seen = set() if seen is None else seen
    for dep in DEPENDS[name]:
        if dep not in seen:
            seen.add(dep)
            closure(dep, seen)
    return seen


def main():
    root = sys.argv[1]
    lib = os.path.join(root, 'lib')
    allowed = set()
    problems = []
    with open(os.path.join(lib, 'internal-api.txt')) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            user, _, header = line.partition(' ')
            header = header.strip()
            owner = header.split('/', 1)[0]
            if user not in DEPENDS or owner not in DEPENDS:
                problems.append(f'internal-api.txt:{lineno}: unknown subsystem in "{line}"')
            elif owner not in closure(user):
                problems.append(f'internal-api.txt:{lineno}: {user} may not depend on {owner} '
                                f'(the arrows in docs/architecture.md point the other way)')
            allowed.add((user, header))

    include = re.compile(r'^\s*#\s*include\s+"([a-z]+)/([^"]+)"', re.M)
    used = set()
    texts = {}
    for sub in sorted(os.listdir(lib)):
        folder = os.path.join(lib, sub)
        if not os.path.isdir(folder):
            continue
        # lib/pch: the precompiled header's folder (public headers only)
        if sub == 'pch':
            continue
        if sub not in DEPENDS:
            problems.append(f'lib/{sub}/: a subsystem missing from check-layering.py')
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.endswith('.h') and not name.endswith('-private.h'):
                problems.append(f'lib/{sub}/{name}: a header in lib/ must be named *-private.h')
            if not name.endswith(('.c', '.h')):
                continue
            with open(path, encoding='utf-8') as f:
                text = f.read()
            texts[(sub, name)] = NOT_CODE.sub(' ', text)
            for owner, rest in include.findall(text):
                if owner == sub or owner == 'core':   # core is for everyone
                    continue
                header = f'{owner}/{rest}'
                if (sub, header) not in allowed:
                    problems.append(f'lib/{sub}/{name}: includes {header}, which '
                                    f'lib/internal-api.txt does not allow for {sub}')
                used.add((sub, header))
    problems += upcalls(texts)
    problems += circles_of_calls(texts)
    for user, header in sorted(allowed - used):
        problems.append(f'internal-api.txt: "{user} {header}" is listed but unused')
    for p in problems:
        print(p)
    print(f'{len(problems)} layering problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
