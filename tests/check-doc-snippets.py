#!/usr/bin/env python3
"""Runs the code of the guides, so they stay true: the ```python blocks of
each page, in order, as one program (with /usr/bin/python3), and its ```js
blocks as one module (with gjs -m, GObject and Gnn imported), in a
temporary working directory. Fails when a program fails.

    check-doc-snippets.py GJS PAGE.md...

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r'^```(python|js)\n(.*?)^```$', re.M | re.S)
JS_IMPORTS = "import GObject from 'gi://GObject';\nimport Gnn from 'gi://Gnn?version=1.0';\n"


def main():
    gjs, pages = sys.argv[1], sys.argv[2:]
    failures = 0
    for page in pages:
        with open(page, encoding='utf-8') as f:
            blocks = BLOCK.findall(f.read())
        for lang, command, suffix in (('python', [sys.executable], '.py'),
                                      ('js', [gjs, '-m'], '.js')):
            code = '\n'.join(body for kind, body in blocks if kind == lang)
            if not code:
                continue
            if lang == 'js' and 'gi://Gnn' not in code:
                code = JS_IMPORTS + code
            with tempfile.TemporaryDirectory() as tmp:
                script = os.path.join(tmp, 'snippet' + suffix)
                with open(script, 'w', encoding='utf-8') as f:
                    f.write(code)
                run = subprocess.run(command + [script], cwd=tmp, capture_output=True, text=True)
            name = f'{os.path.basename(page)} ({lang})'
            if run.returncode == 0:
                print(f'ok - {name}')
            else:
                failures += 1
                print(f'not ok - {name}: exit {run.returncode}\n{run.stdout}{run.stderr}')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
