// testlib.js: the check/assert helpers shared by the GJS suites.
// Import with `import {check, assert, ...} from './testlib.js';` and end the
// suite with `finish();`, which exits non-zero when a check failed.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gnn from 'gi://Gnn?version=1.0';
import System from 'system';

let failures = 0;

export function check(name, fn) {
    try {
        fn();
        print(`ok - ${name}`);
    } catch (e) {
        failures++;
        printerr(`not ok - ${name}: ${e}\n${e.stack ?? ''}`);
    }
}

export function assert(cond, what) {
    if (!cond)
        throw new Error(`assertion failed: ${what}`);
}

export function assertClose(got, expected, what) {
    assert(got.length === expected.length,
        `${what}: length ${got.length} != ${expected.length}`);
    for (let i = 0; i < got.length; i++) {
        assert(Math.abs(got[i] - expected[i]) <= 1e-5 * Math.max(1, Math.abs(expected[i])),
            `${what}[${i}]: ${got[i]} != ${expected[i]}`);
    }
}

export function assertThrows(fn, code, substring, what) {
    let thrown = null;
    try {
        fn();
    } catch (e) {
        thrown = e;
    }
    assert(thrown !== null, `${what}: no error thrown`);
    assert(thrown instanceof GLib.Error, `${what}: not a GLib.Error: ${thrown}`);
    assert(thrown.matches(Gnn.error_quark(), code), `${what}: wrong domain/code: ${thrown}`);
    assert(thrown.message.includes(substring), `${what}: message: ${thrown.message}`);
}

export function finish() {
    if (failures > 0) {
        printerr(`${failures} check(s) failed`);
        System.exit(1);
    }
}
