#!/usr/bin/env bash
# check-install.sh: install the build into a temporary DESTDIR and use it the
# way a user of the installed library would.
#
#   check-install.sh MESON BUILD_ROOT SRC_DIR VERSION PREFIX LIBDIR INCLUDEDIR
#                    DATADIR PYTHON PY_OVERRIDES_DIR|-
#
# LIBDIR, INCLUDEDIR and DATADIR are meson's options (relative to PREFIX or
# absolute); PY_OVERRIDES_DIR is "-" when introspection is off.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

set -euo pipefail

meson=$1 build_root=$2 src_dir=$3 version=$4 prefix=$5
libdir=$6 includedir=$7 datadir=$8 python=$9 overrides_dir=${10}

abs () { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
libdir=$(abs "$libdir") includedir=$(abs "$includedir") datadir=$(abs "$datadir")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gnn-install-test.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT
dest=$tmp/dest
n_checks=0

ok () { n_checks=$((n_checks + 1)); echo "ok $n_checks - $*"; }
die () { echo "not ok - $*" >&2; exit 1; }
must_exist () { [ -e "$dest$1" ] || die "not installed: $1"; ok "installed $1"; }

# Nothing from the build tree may leak into what we test.
unset LD_LIBRARY_PATH GI_TYPELIB_PATH PYTHONPATH PKG_CONFIG_PATH

"$meson" install -C "$build_root" --destdir "$dest" --no-rebuild --quiet \
  > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; die "meson install"; }
ok "meson install --destdir"

must_exist "$libdir/libgnn-1.0.so"
must_exist "$libdir/pkgconfig/gnn-1.0.pc"
must_exist "$includedir/gnn-1.0/gnn/gnn.h"
must_exist "$includedir/gnn-1.0/gnn/gnn-version.h"
must_exist "$includedir/gnn-1.0/gnn/gnn-enum-types.h"
# The API reference is installed whenever it was built (gi-docgen present).
if [ -d "$build_root/docs/gnn-1.0" ]; then
  must_exist "$datadir/doc/gnn-1.0/index.html"
fi
if [ "$overrides_dir" != - ]; then
  must_exist "$libdir/girepository-1.0/Gnn-1.0.typelib"
  must_exist "$datadir/gir-1.0/Gnn-1.0.gir"
  must_exist "$overrides_dir/Gnn.py"
fi

# pkg-config on the installed .pc: only its prefix moves into DESTDIR
# (PKG_CONFIG_SYSROOT_DIR would also move glib's paths, and --define-prefix
# guesses the prefix wrong for Debian's multiarch libdir).
mkdir "$tmp/pc"
sed -e "s|^prefix=.*|prefix=$dest$prefix|" "$dest$libdir/pkgconfig/gnn-1.0.pc" > "$tmp/pc/gnn-1.0.pc"
export PKG_CONFIG_PATH=$tmp/pc
pkg-config --exists --print-errors gnn-1.0 || die "pkg-config gnn-1.0"
[ "$(pkg-config --modversion gnn-1.0)" = "$version" ] || die "pkg-config --modversion is not $version"
ok "pkg-config gnn-1.0 $version"
read -r -a cflags <<< "$(pkg-config --cflags gnn-1.0)"
read -r -a libs <<< "$(pkg-config --libs gnn-1.0)"
case " ${cflags[*]} " in *" -I$dest$includedir/gnn-1.0 "*) ;; *) die "cflags lack -I$dest$includedir/gnn-1.0: ${cflags[*]}" ;; esac
# Only Gnn's own flags and its public dependencies' (GLib, GObject, GIO):
# the private ones are link-only.
for leak in openblas openmpi json-glib libzip; do
  case " ${cflags[*]} " in *"$leak"*) die "pkg-config --cflags leaks $leak: ${cflags[*]}" ;; esac
done
ok "pkg-config --cflags has no private dependency's include path"

cc=${CC:-cc}
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/hello-gnn" "$src_dir/hello-gnn.c" \
  "${cflags[@]}" "${libs[@]}" || die "compile hello-gnn.c against the installed gnn-1.0"
ok "compile and link hello-gnn.c"

export LD_LIBRARY_PATH=$dest$libdir
# (ldd's output is read whole: grep -q under pipefail could SIGPIPE ldd.)
deps=$(ldd "$tmp/hello-gnn") || die "ldd hello-gnn"
case $deps in
  *"libgnn-1.0.so.0 => $dest$libdir/"*) ;;
  *) die "hello-gnn does not resolve libgnn-1.0.so.0 into $dest$libdir: $deps" ;;
esac
out=$("$tmp/hello-gnn") || die "hello-gnn exited with $?"
printf '%s\n' "$out" | sed 's/^/# /'
case $out in tensor\(*) ;; *) die "hello-gnn did not print a tensor" ;; esac
expected="hello-gnn $version: 2x3 float32, t[1][2] = 6"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "$expected" ] || die "hello-gnn's last line is not: $expected"
ok "run hello-gnn"

# The version macros (GLib's scheme): a symbol deprecated in a version the
# program requires warns, GNN_DISABLE_DEPRECATION_WARNINGS silences it, and
# a GNN_VERSION_MIN_REQUIRED older than the first release is refused.
cat > "$tmp/deprecated.c" <<'PROBE'
#include <gnn/gnn.h>
GNN_DEPRECATED_IN_0_1_FOR (gnn_get_major_version) guint old_major (void);
GNN_AVAILABLE_IN_0_1 guint new_major (void);
guint old_major (void) { return gnn_get_major_version (); }
guint new_major (void) { return gnn_get_major_version (); }
int main (void) { return (int) (old_major () + new_major ()) - 2 * (int) GNN_MAJOR_VERSION; }
PROBE
"$cc" -std=c11 -Werror=deprecated-declarations -fsyntax-only "${cflags[@]}" "$tmp/deprecated.c" \
  2> "$tmp/deprecated.log" && die "a GNN_DEPRECATED_IN_0_1_FOR symbol compiled without a warning"
grep -q "old_major.*deprecated: Use 'gnn_get_major_version' instead" "$tmp/deprecated.log" ||
  { cat "$tmp/deprecated.log" >&2; die "GNN_DEPRECATED_IN_0_1_FOR did not name its replacement"; }
grep -q "'new_major' is deprecated" "$tmp/deprecated.log" && die "GNN_AVAILABLE_IN_0_1 warned in 0.1"
"$cc" -std=c11 -Werror -fsyntax-only -DGNN_DISABLE_DEPRECATION_WARNINGS "${cflags[@]}" \
  "$tmp/deprecated.c" || die "GNN_DISABLE_DEPRECATION_WARNINGS did not silence the warning"
"$cc" -std=c11 -fsyntax-only '-DGNN_VERSION_MIN_REQUIRED=GNN_ENCODE_VERSION(0,0)' \
  "${cflags[@]}" "$tmp/deprecated.c" 2> "$tmp/min.log" && die "GNN_VERSION_MIN_REQUIRED=0.0 compiled"
grep -q 'GNN_VERSION_MIN_REQUIRED must be >= GNN_VERSION_0_1' "$tmp/min.log" ||
  { cat "$tmp/min.log" >&2; die "GNN_VERSION_MIN_REQUIRED=0.0 failed for another reason"; }
ok "GNN_DEPRECATED_IN_0_1_FOR warns, GNN_AVAILABLE_IN_0_1 does not, MIN_REQUIRED is checked"

# Direct inclusion without gnn.h does not compile...
printf '#include <gnn/gnn-tensor.h>\nint main (void) { return 0; }\n' > "$tmp/direct.c"
if "$cc" -std=c11 -fsyntax-only "${cflags[@]}" "$tmp/direct.c" 2> "$tmp/direct.log"; then
  die "#include <gnn/gnn-tensor.h> without gnn.h compiled"
fi
grep -q 'Only <gnn/gnn.h> can be included directly' "$tmp/direct.log" ||
  { cat "$tmp/direct.log" >&2; die "#include <gnn/gnn-tensor.h> failed for another reason"; }
ok "#include <gnn/gnn-tensor.h> without gnn.h fails"

# ...and every installed header has that guard: one preprocessor run over all
# of them must report the #error once inside each (each is entered once).
: > "$tmp/all.c"
for h in "$dest$includedir"/gnn-1.0/gnn/*.h; do
  [ "$(basename "$h")" = gnn.h ] || printf '#include <gnn/%s>\n' "$(basename "$h")" >> "$tmp/all.c"
done
"$cc" -std=c11 -E -o /dev/null "${cflags[@]}" "$tmp/all.c" 2> "$tmp/all.log" &&
  die "including every header without gnn.h raised no error"
grep -q 'fatal error' "$tmp/all.log" &&
  { grep 'fatal error' "$tmp/all.log" >&2; die "an installed header includes a missing file"; }
unguarded=()
while read -r line; do
  name=${line#'#include <gnn/'}; name=${name%'>'}
  grep -q "/gnn/$name:[0-9]*:[0-9]*: error: #error \"Only <gnn/gnn.h> can be included directly" "$tmp/all.log" ||
    unguarded+=("$name")
done < "$tmp/all.c"
[ ${#unguarded[@]} -eq 0 ] || die "headers without the gnn.h guard: ${unguarded[*]}"
ok "all $(wc -l < "$tmp/all.c") other installed headers refuse direct inclusion"

# The installed typelib, library and Python override work together.
if [ "$overrides_dir" != - ]; then
  export GI_TYPELIB_PATH=$dest$libdir/girepository-1.0
  PYTHONPATH=$dest$(dirname "$(dirname "$overrides_dir")") "$python" -c '
import sys, gi
gi.require_version("Gnn", "1.0")
from gi.repository import Gnn
override = sys.modules["gi.overrides.Gnn"].__file__
assert override.startswith(sys.argv[1]), override
package = sys.modules["gnn"].__file__     # the override'"'"'s package
assert package.startswith(sys.argv[1]), package
assert Gnn.Linear(3, 2).get_property("out-features") == 2
t = Gnn.Tensor.new_scalar(2.5, Gnn.DType.F32)
assert t.item() == 2.5, t.item()
' "$dest" || die "python3: installed typelib + override"
  ok "python3 imports the installed typelib and Gnn.py override"
  # the public package, the torch module tree, imported without gi first
  PYTHONPATH=$dest$(dirname "$(dirname "$overrides_dir")") "$python" -c '
import sys
import gnn as torch
import gnn.nn as nn
import gnn.nn.functional as F
from gnn.utils.data import DataLoader, TensorDataset
from gnn.optim.lr_scheduler import StepLR
import gnn.vision
for name in ("gnn.nn", "gnn.nn.functional", "gnn.utils.data", "gnn.optim.lr_scheduler",
             "gnn.vision"):
    assert sys.modules[name].__file__.startswith(sys.argv[1]), sys.modules[name].__file__
from gi.repository import Gnn
assert nn.Linear is Gnn.Linear and torch.nn is Gnn.nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
loader = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 2)), batch_size=4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = StepLR(opt, step_size=1)
for x, y in loader:
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
sched.step()
assert abs(opt.param_groups[0]["lr"] - 0.01) < 1e-12
' "$dest" || die "python3: installed package gnn (the torch module tree)"
  ok "python3 imports the installed package gnn as torch"
fi

echo "1..$n_checks"
