#!/usr/bin/env bash
# The installed package, as a user gets it (issue 19): cmake --install to a temporary prefix, its layout, a consumer
# project built against it with find_package, and the installed `study` run from the prefix and again after the
# prefix is moved (it finds its data beside itself); the source tree as a subproject.  Usage: install.sh BUILD_DIR
# SOURCE_DIR.  Prints "N passed, M failed".
set -u
build=$(realpath "$1")
source=$(realpath "$2")
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
here=$(cd "$(dirname "$0")" && pwd)
export HOME="$tmp/home" STUDY_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME"
unset STUDY_DATA_DIR

if cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1; then ok "cmake --install to a prefix"; else bad "cmake --install: $(tail -5 "$tmp/install.log")"; fi
p="$tmp/prefix"
missing=""
for f in bin/study include/ode_accuracy_harness/integrators/all.hpp include/ode_accuracy_harness/study/problems/harmonic.hpp \
         include/ode_accuracy_harness/study/engine.hpp include/ode_accuracy_harness/reference/reference.hpp \
         lib/cmake/ode_accuracy_harness/ode_accuracy_harness-config.cmake lib/cmake/ode_accuracy_harness/ode_accuracy_harness-config-version.cmake \
         lib/cmake/ode_accuracy_harness/ode_accuracy_harness-targets.cmake lib/libharness_engine.a \
         share/ode_accuracy_harness/methods/builtin.toml share/ode_accuracy_harness/results.schema.json share/ode_accuracy_harness/profiles share/ode_accuracy_harness/specs; do
  [ -e "$p/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "the prefix holds the command, headers, libraries, package files and data" || bad "missing from the prefix:$missing"
[ -z "$(find "$p" -name '*.cpp' -o -name 'CMakeLists.txt' | head -1)" ] && ok "no sources or build files are installed" ||
  bad "installed sources: $(find "$p" -name '*.cpp' | head -3)"
grep -qs "$source/study" "$p/bin/study" && bad "the installed study has a source path compiled in" || ok "no source path is compiled into the installed study"

# A consumer project, outside the source tree, against the prefix.
cp -r "$here/consumer" "$tmp/consumer"
if cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -G Ninja -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release > "$tmp/consumer.log" 2>&1 &&
   cmake --build "$tmp/consumer/build" >> "$tmp/consumer.log" 2>&1; then
  ok "a consumer project finds the package with find_package(ode_accuracy_harness 0.7 CONFIG) and builds"
else
  bad "consumer: $(tail -15 "$tmp/consumer.log")"
fi
expect "the consumer runs an installed integrator on an installed problem: order 2 observed" 0 "order (1\.9[5-9]|2\.0[0-5])" \
  "$tmp/consumer/build/consumer"
expect "a consumer linking the engine finds the installed data through the package and reads every shipped spec" 0 \
  "^1[0-9] shipped specs, [0-9]+ integrators, from $p/share/ode_accuracy_harness" "$tmp/consumer/build/engine_consumer"
sed -i 's/ode_accuracy_harness 0.7 CONFIG/ode_accuracy_harness 9.0 CONFIG/' "$tmp/consumer/CMakeLists.txt"
expect "a consumer asking for another version is told the version found" 1 "version: 0\.7\.[0-9]+" \
  cmake -S "$tmp/consumer" -B "$tmp/consumer/build9" -G Ninja -DCMAKE_PREFIX_PATH="$p"

# As a subproject: only the header-only integrators with ODE_ACCURACY_HARNESS_BUILD_STUDY=OFF (no dependency looked
# for), and with the study no tests of ours in the parent.
mkdir -p "$tmp/parent"
cp "$here/consumer/main.cpp" "$tmp/parent/"
cat > "$tmp/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(parent LANGUAGES CXX)
enable_testing()
add_subdirectory("$source" harness)
add_executable(parent_main main.cpp)
target_link_libraries(parent_main PRIVATE ode_accuracy_harness::integrators \${EXTRA})
CMAKE
cat > "$tmp/parent/main.cpp" <<'CPP'
// Velocity Verlet on x'' = -x, a problem of the parent's own (no study headers), to t = pi/2 at n and 2n steps:
// prints the observed order (2).
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "integrators/all.hpp"

struct Spring {
  using real_type = double;
  static constexpr std::size_t dim = 1;
  using Vec = std::array<double, 1>;
  using State = ode::State<double, 1>;
  void accel(const Vec& q, Vec& a) const { a[0] = -q[0]; }
};

double error_at_quarter_period(int n) {
  const Spring p;
  Spring::State s{{1.0}, {0.0}, 0.0};
  auto stepper = ode::make_stepper<Spring>(ode::VelocityVerlet{});
  for (int k = 0; k < n; ++k) stepper.step(s, std::numbers::pi / 2 / n, p);
  return std::abs(s.q[0]);
}

int main() { std::printf("order %.2f\n", std::log2(error_at_quarter_period(250) / error_at_quarter_period(500))); }
CPP
if cmake -S "$tmp/parent" -B "$tmp/parent/only" -G Ninja -DODE_ACCURACY_HARNESS_BUILD_STUDY=OFF > "$tmp/parent.log" 2>&1 &&
   ! grep -E "^-- (Found|Could NOT find|Checking for module|Performing Test)" "$tmp/parent.log" | grep -qiE "Boost|fmt|CLI11|toml|xxhash|quadmath|nlohmann|benchmark" && cmake --build "$tmp/parent/only" >> "$tmp/parent.log" 2>&1 &&
   "$tmp/parent/only/parent_main" | grep -qE "order (1\.9[5-9]|2\.0[0-5])"; then
  ok "add_subdirectory with ODE_ACCURACY_HARNESS_BUILD_STUDY=OFF: the integrators alone, no dependency looked for"
else
  bad "integrators-only subproject: $(tail -15 "$tmp/parent.log")"
fi
if cmake -S "$tmp/parent" -B "$tmp/parent/full" -G Ninja -DEXTRA=ode_accuracy_harness::engine > "$tmp/parent-full.log" 2>&1 &&
   (cd "$tmp/parent/full" && ctest -N) | grep -q "Total Tests: 0"; then
  ok "add_subdirectory with the study: its namespaced targets, and none of its tests in the parent"
else
  bad "full subproject: $(tail -15 "$tmp/parent-full.log"; cd "$tmp/parent/full" 2>/dev/null && ctest -N | tail -3)"
fi

# The installed study, then the same tree moved elsewhere: it finds its data beside itself.
expect "the installed study prints its version and revision" 0 "^study 0\.7\.[0-9]+ \(source revision " "$p/bin/study" --version
mv "$p" "$tmp/moved"
p="$tmp/moved"
expect "moved, it still lists the shipped specs" 0 "kepler" "$p/bin/study" list --specs
cd "$tmp" || exit 1
expect "moved, it runs the shipped ci profile from its data" 0 "" "$p/bin/study" run --profile ci --out "$tmp/out" --quiet --no-report
expect "moved, study check passes it against the shipped baseline" 0 "0 fail" \
  "$p/bin/study" check "$tmp/out" --baseline "$p/share/ode_accuracy_harness/profiles/ci.baseline.toml"
expect "moved, study report renders it" 0 "wrote .*REPORT.md" "$p/bin/study" report "$tmp/out"

# The results contract: the fresh results validate against the installed JSON Schema, and a planted bad value fails.
validate() {  # validate SCHEMA FILE: exit 0 when valid, else the first error
  python3 -c 'import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.absolute_path))
for e in errors[:1]: print("invalid at", "/".join(map(str, e.absolute_path)), ":", e.message[:200])
sys.exit(1 if errors else 0)' "$1" "$2"
}
schema="$p/share/ode_accuracy_harness/results.schema.json"
expect "the ci profile's results.json validates against the installed JSON Schema" 0 "" validate "$schema" "$tmp/out/results.json"
sed '0,/"status": "ok"/s//"status": "great"/' "$tmp/out/results.json" > "$tmp/bad-status.json"
expect "a planted unknown status fails the schema" 1 "invalid at studies/0/runs/[0-9]+/status" validate "$schema" "$tmp/bad-status.json"
sed '0,/"global": [0-9]/s//"global": -1/' "$tmp/out/results.json" > "$tmp/bad-error.json"
expect "a planted negative error fails the schema" 1 "invalid at studies/0/runs/[0-9]+/error/global" validate "$schema" "$tmp/bad-error.json"
# An automatic sweep writes what the ci profile's fixed ones do not (sweeps[].stop_cause).
"$p/bin/study" run --problem harmonic --integrators rk4,leapfrog --t-end 3 --dt auto --out "$tmp/auto" --quiet --no-report > /dev/null 2>&1
grep -q '"stop_cause"' "$tmp/auto/results.json" 2>/dev/null && ok "an automatic sweep's results.json records why each sweep stopped" ||
  bad "no stop_cause in an automatic sweep's results.json"
expect "an automatic sweep's results.json validates against the installed JSON Schema" 0 "" validate "$schema" "$tmp/auto/results.json"
sed '0,/"stop_cause": "[a-z-]*"/s//"stop_cause": "tired"/' "$tmp/auto/results.json" > "$tmp/bad-cause.json"
expect "a planted unknown stop cause fails the schema" 1 "invalid at studies/0/sweeps/[0-9]+/stop_cause" validate "$schema" "$tmp/bad-cause.json"
expect "STUDY_DATA_DIR naming a folder without the data is a clear error, exit 2" 2 "STUDY_DATA_DIR=$tmp: this folder does not hold specs/" \
  env STUDY_DATA_DIR="$tmp" "$p/bin/study" list --specs
mv "$p/share" "$tmp/share-away"
expect "without its data, study says where it looked and what to set (exit 2, not an abort)" 2 "cannot find the shipped specs.*set STUDY_DATA_DIR" \
  "$p/bin/study" list --specs
expect "STUDY_DATA_DIR points it at data elsewhere" 0 "kepler" env STUDY_DATA_DIR="$tmp/share-away/ode_accuracy_harness" "$p/bin/study" list --specs

finish
