#!/usr/bin/env python3
# Fails when gi-docgen finds a public symbol without documentation (every
# public symbol must have a description, parameters and return value), or
# when a public symbol of the GIR carries no "Since:" version.
import subprocess
import sys
import xml.etree.ElementTree as ET

gi_docgen, gir = sys.argv[1], sys.argv[2]
run = subprocess.run([gi_docgen, 'check', gir], capture_output=True, text=True)
warnings = [line for line in (run.stdout + run.stderr).splitlines() if 'WARNING' in line]

CORE = '{http://www.gtk.org/introspection/core/1.0}'
GLIB = '{http://www.gtk.org/introspection/glib/1.0}'
# Elements that document a symbol of their own: each needs Since:.
# Virtual methods are documented in their class struct, whose Since: holds.
VERSIONED = {'class', 'interface', 'record', 'enumeration', 'bitfield', 'callback',
             'function', 'method', 'constructor', 'property', 'constant', 'alias'}
VERSIONED |= {GLIB + 'signal'}
unversioned = []


def walk(node, path):
    for child in node:
        tag = child.tag.replace(CORE, '')
        name = child.get('name')
        if tag in VERSIONED and name is not None and child.get('introspectable') != '0':
            # Class structs (GnnTensorClass) are documented with their class.
            if child.get(GLIB + 'is-gtype-struct-for') is None and child.get('version') is None:
                unversioned.append('.'.join(path + [name]))
        # Callbacks typed inside a field are documented with their vfunc.
        if name is not None and tag != 'field':
            walk(child, path + [name])


walk(ET.parse(gir).getroot().find(CORE + 'namespace'), [])
for line in warnings:
    print(line)
for name in unversioned:
    print(f'no Since: {name}')
print(f'{len(warnings)} documentation warnings, {len(unversioned)} symbols without Since:')
sys.exit(1 if warnings or unversioned or run.returncode != 0 else 0)
