#!/usr/bin/env python3
# Fails when gi-docgen finds a public symbol without documentation: every
# public symbol must have a description, parameters and return value.
import subprocess
import sys

gi_docgen, gir = sys.argv[1], sys.argv[2]
run = subprocess.run([gi_docgen, 'check', gir], capture_output=True, text=True)
warnings = [line for line in (run.stdout + run.stderr).splitlines() if 'WARNING' in line]
for line in warnings:
    print(line)
print(f'{len(warnings)} documentation warnings')
sys.exit(1 if warnings or run.returncode != 0 else 0)
