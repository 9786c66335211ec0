#!/usr/bin/env python3
# Fails when gi-docgen finds a public symbol without documentation (every
# public symbol must have a description, parameters and return value), or
# when a public symbol of the GIR carries no "Since:" version or one newer
# than the release (Since: tags name the release that added the symbol).
import subprocess
import sys
import xml.etree.ElementTree as ET

gi_docgen, gir, release = sys.argv[1], sys.argv[2], sys.argv[3]
release_key = tuple(int(p) for p in release.split('.')[:2])
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
too_new = []


def version_key(version):
    try:
        return tuple(int(p) for p in version.split('.')[:2])
    except ValueError:
        return (1 << 30,)


def walk(node, path):
    for child in node:
        tag = child.tag.replace(CORE, '')
        name = child.get('name')
        if tag in VERSIONED and name is not None and child.get('introspectable') != '0':
            # Class structs (GnnTensorClass) are documented with their class.
            version = child.get('version')
            if child.get(GLIB + 'is-gtype-struct-for') is None and version is None:
                unversioned.append('.'.join(path + [name]))
            elif version is not None and version_key(version) > release_key:
                too_new.append(f"{'.'.join(path + [name])} (Since: {version})")
        # Callbacks typed inside a field are documented with their vfunc.
        if name is not None and tag != 'field':
            walk(child, path + [name])


walk(ET.parse(gir).getroot().find(CORE + 'namespace'), [])
for line in warnings:
    print(line)
for name in unversioned:
    print(f'no Since: {name}')
for name in too_new:
    print(f'Since: newer than the release {release}: {name}')
print(f'{len(warnings)} documentation warnings, {len(unversioned)} symbols without Since:, '
      f'{len(too_new)} with a Since: newer than {release}')
sys.exit(1 if warnings or unversioned or too_new or run.returncode != 0 else 0)
