#!/usr/bin/env bash
# The architecture test can fail: on a copy of the tree, one planted include at a time (an upward one, one into a
# folder a reader of results files may not know, a third-party header in integrators/, Odeint outside reference/),
# layers.sh must exit 1 naming the file and line; on the unchanged copy it must pass.  Usage: planted.sh SOURCE_DIR
set -u
src=$1
source "$(dirname "$0")/../support.sh"
copy() {
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/tests"
  cp -r "$src/integrators" "$src/reference" "$src/study" "$tmp/tree/" && cp -r "$src/tests/architecture" "$tmp/tree/tests/"
  mkdir -p "$tmp/tree/reports" && find "$src/reports" -maxdepth 2 -type f -not -path '*/example/*' -printf '%P\n' |
    while read -r f; do mkdir -p "$tmp/tree/reports/$(dirname "$f")" && cp "$src/reports/$f" "$tmp/tree/reports/$f"; done
}
# plant FILE TEXT: TEXT as the file's first line, so that the message must name line 1.
plant() { sed -i "1i $2" "$tmp/tree/$1"; }
layers="$tmp/tree/tests/architecture/layers.sh"

copy
expect "the unchanged tree passes" 0 "every include points down" bash "$layers" "$tmp/tree"
copy && plant study/spec/spec.cpp '#include "study/measure/measure.hpp"'
expect "spec/ including measure/ fails, naming the file and line" 1 \
  'study/spec/spec.cpp:1: #include "study/measure/measure.hpp" points up: study/measure is a layer above study/spec' bash "$layers" "$tmp/tree"
copy && plant reports/render.cpp '#include "study/spec/spec.hpp"'
expect "reports/ including spec/ fails (a reader of results files)" 1 \
  'reports/render.cpp:1: #include "study/spec/spec.hpp": reports may not include study/spec' bash "$layers" "$tmp/tree"
copy && plant study/check/check.cpp '#include "reports/render.hpp"'
expect "study/check including the renderer above it fails" 1 'study/check/check.cpp:1: .* points up' bash "$layers" "$tmp/tree"
copy && plant reports/plots.cpp '#include <study/plan/plan.hpp>'
expect "a project header in angle brackets is checked too" 1 \
  'reports/plots.cpp:1: #include "study/plan/plan.hpp": reports may not include study/plan' bash "$layers" "$tmp/tree"
copy && printf '#pragma once\n#include "study/cli/options.hpp"\n' > "$tmp/tree/study/spec/extra.ipp"
expect "a header of another extension (.ipp) is read too" 1 'study/spec/extra.ipp:2: .* points up' bash "$layers" "$tmp/tree"
copy && plant study/spec/spec.cpp '#include SOME_HEADER'
expect "an include the test cannot read is refused" 1 'study/spec/spec.cpp:1: #include SOME_HEADER: an include this test cannot read' \
  bash "$layers" "$tmp/tree"
copy && plant integrators/euler.hpp '#include <fmt/core.h>'
expect "integrators/ including a third-party header fails" 1 \
  'integrators/euler.hpp:1: #include <fmt/core.h>: integrators/ includes the C\+\+ standard library only' bash "$layers" "$tmp/tree"
copy && plant study/measure/sweep.cpp '#include <boost/numeric/odeint.hpp>'
expect "Odeint outside reference/ fails" 1 'study/measure/sweep.cpp:1: .*only reference/ includes Boost.Odeint' bash "$layers" "$tmp/tree"
copy && mkdir -p "$tmp/tree/study/newstage" && echo '#pragma once' > "$tmp/tree/study/newstage/x.hpp"
expect "a folder the layers do not list fails" 1 'study/newstage/x.hpp: its folder study/newstage is not in' bash "$layers" "$tmp/tree"
copy && sed -i 's#^study/spec        integrators#study/spec        study/plan integrators#' "$tmp/tree/tests/architecture/layers.txt"
expect "a layer allowed to include one above it is refused in layers.txt itself" 1 'study/spec may include study/plan, which is not listed above it' \
  bash "$layers" "$tmp/tree"
finish
