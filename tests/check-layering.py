#!/usr/bin/env python3
# Keeps lib/ layered as docs/architecture.md draws it:
#  - every header inside lib/ is private and says so in its name (-private.h);
#  - a file may include another subsystem's private header only when
#    lib/internal-api.txt lists that (subsystem, header) pair (lib/core's
#    headers are for everyone);
#  - every listed pair points down the dependency picture, never up;
#  - no function calls up the house: a call from lib/<a> to a function that
#    lib/<b> defines needs b below a (the public headers are all included
#    everywhere through gnn.h, so includes alone cannot show such a call);
#  - the files of the folders in ACYCLIC call each other without a circle
#    (a file's calls to the functions another file of its folder defines).
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


# Folders whose files must call each other without a circle.
ACYCLIC = ['data']

# Files known to call up the house, not yet moved to where they belong
# (file: why it stays for now). Do not add to this list: put new code where
# its calls point down.
KNOWN_UP_CALLERS = {
    # whole-model and checkpoint files hold modules and optimizers: they
    # belong above optim (a lib/train-level folder), not in io
    'lib/io/gnn-checkpoint.c': 'saves modules, optimizers and schedulers',
    'lib/io/gnn-checkpoint-load.c': 'loads modules, optimizers and schedulers',
    'lib/io/gnn-model-read.c': 'rebuilds modules',
    'lib/io/gnn-model-write.c': 'walks modules',
}


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
    for sub in sorted(os.listdir(lib)):
        folder = os.path.join(lib, sub)
        if not os.path.isdir(folder):
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
            for owner, rest in include.findall(text):
                if owner == sub or owner == 'core':   # core is for everyone
                    continue
                header = f'{owner}/{rest}'
                if (sub, header) not in allowed:
                    problems.append(f'lib/{sub}/{name}: includes {header}, which '
                                    f'lib/internal-api.txt does not allow for {sub}')
                used.add((sub, header))
    for user, header in sorted(allowed - used):
        problems.append(f'internal-api.txt: "{user} {header}" is listed but unused')
    problems += check_calls(lib)
    for p in problems:
        print(p)
    print(f'{len(problems)} layering problems')
    return 1 if problems else 0


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# A definition in GNU style: the name at the start of a line, its return
# type on the line before (not static: those stay inside their file).
DEFINITION = re.compile(r'^(?P<type>[A-Za-z_][\w \t\*]*)\n(?P<name>[a-z_]\w*) \((?=[^;]*?\)\s*\{)', re.M)
CALL = re.compile(r'\b([a-z_]\w*)\s*\(')


def sources(lib):
    for sub in sorted(os.listdir(lib)):
        folder = os.path.join(lib, sub)
        if sub not in DEPENDS or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith('.c'):
                with open(os.path.join(folder, name), encoding='utf-8') as f:
                    yield sub, name, COMMENT.sub(' ', f.read())


def check_calls(lib):
    files = list(sources(lib))
    defined = {}   # name -> [(sub, file)]
    for sub, name, text in files:
        for m in DEFINITION.finditer(text):
            if 'static' not in m.group('type').split():
                defined.setdefault(m.group('name'), []).append((sub, name))
    problems = []
    edges = {}     # (sub, file) -> {(sub, file): names}
    for sub, name, text in files:
        below = closure(sub) | {sub, 'core'}
        for callee in sorted(set(CALL.findall(text))):
            owners = defined.get(callee, [])
            if len(owners) != 1 or owners[0] == (sub, name):
                continue
            owner_sub, owner_file = owners[0]
            if owner_sub not in below and f'lib/{sub}/{name}' not in KNOWN_UP_CALLERS:
                problems.append(f'lib/{sub}/{name}: calls {callee} (lib/{owner_sub}/{owner_file}), '
                                f'up the house: {owner_sub} is not below {sub} in docs/architecture.md')
            if owner_sub == sub and sub in ACYCLIC:
                edges.setdefault((sub, name), {}).setdefault(owners[0], []).append(callee)
    for circle in circles(edges):
        ties = [f'{a[1]} -> {b[1]} ({", ".join(names[:3])})'
                for a in circle for b, names in sorted(edges.get(a, {}).items()) if b in circle]
        problems.append(f'lib/{circle[0][0]}/: a circle of calls between {len(circle)} files: '
                        + '; '.join(ties))
    return problems


def circles(edges):
    """The strongly connected components of more than one file (Tarjan),
    each in an order that follows its arrows where it can."""
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


if __name__ == '__main__':
    sys.exit(main())
