#!/usr/bin/env bash
# The two example projects (examples/, issue 19) as a user builds them: this build installed to a temporary prefix,
# each example copied outside the source tree and built against the prefix with find_package, its study run and
# gated with `study check`, its deliberately broken variant rejected; an edit to the integrator rebuilt and
# judged again (the time printed: docs/extend.md, "Edit to verdict"), and the programs run again after the prefix is moved.
# Usage: examples.sh BUILD_DIR SOURCE_DIR.  Prints "N passed, M failed".
set -u
build=$(realpath "$1")
source=$(realpath "$2")
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
export HOME="$tmp/home" STUDY_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME"
unset STUDY_DATA_DIR

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 || { echo "FAIL: cmake --install: $(tail -5 "$tmp/install.log")"; exit 1; }
p="$tmp/prefix"

build_example() {  # build_example NAME: copy it out of the source tree and build it against the prefix
  cp -r "$source/examples/$1" "$tmp/$1"
  local began=$SECONDS
  if cmake -S "$tmp/$1" -B "$tmp/$1/build" -G Ninja -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release > "$tmp/$1.log" 2>&1 &&
     cmake --build "$tmp/$1/build" >> "$tmp/$1.log" 2>&1; then
    ok "examples/$1 builds against the installed package, outside the source tree ($((SECONDS - began)) s)"
  else
    bad "examples/$1 does not build: $(grep -m3 -E 'error|Error' "$tmp/$1.log"; tail -5 "$tmp/$1.log")"
  fi
}

# An integrator of one's own: the engine's Verlet, and its variant with the velocity bug.
build_example game-verlet
game="$tmp/game-verlet/build/game_study"
cd "$tmp/game-verlet" || exit 1
expect "game_study lists the engine's integrators beside the built-in ones" 0 "velocity-verlet.*game-verlet  .*game-verlet-broken" \
  bash -o pipefail -c "'$game' list --integrators | tr '\n' ' '"
expect "game_study runs its spec" 0 "" "$game" run game-verlet.toml --out results --quiet --no-report
expect "its gate passes the engine's Verlet: orders 2 and 3, energy bounded" 0 \
  "PASS .*game-verlet \| global order.*PASS .*game-verlet \| local order.*PASS .*game-verlet \| energy bounded.*: [0-9]+ passed, 0 failed, 0 undetermined" \
  bash -o pipefail -c "'$game' check results -v | tr '\n' ' '"
expect "game_study renders the report, the engine's Verlet in it" 0 "wrote .*REPORT.md" "$game" report results
grep -q "game-verlet" results/*/REPORT.md && ok "the study's page names the engine's Verlet" || bad "no page names game-verlet"
expect "game_study runs the broken variant's spec" 0 "" "$game" run game-verlet-broken.toml --out broken --quiet --no-report
expect "its gate rejects the variant with the velocity bug: global order 1, not the declared 2" 1 \
  "FAIL .*game-verlet-broken \| global order \| expected 2 .*\| (0\.9[0-9]|1\.0[0-9]) in" "$game" check broken
expect "a spec putting the engine's Verlet on a velocity-dependent force is refused before anything runs (exit 2)" 2 \
  "game-verlet needs a position-only force" \
  "$game" run --problem damped-oscillator --integrators game-verlet --t-end 1 --dt 0.1 --out refused --quiet
[ ! -e refused ] && ok "nothing is written for a refused spec" || bad "a refused spec left $tmp/game-verlet/refused"

# The edit-to-verdict loop: the bug put into the engine's Verlet itself, rebuilt, judged again; the new program's
# runs and round-off shadows are not answered from the caches of the old one.
sed -i 's|Broken ? h \* next\[i\] : h / 2 \* (a_\[i\] + next\[i\])|h * next[i]|' game_verlet.hpp
grep -q "s.v\[i\] += h \* next\[i\];" game_verlet.hpp || bad "the edit to game_verlet.hpp did not apply"
start=$(date +%s%N)
cmake --build "$tmp/game-verlet/build" > "$tmp/rebuild.log" 2>&1 || bad "the rebuild after an edit failed: $(tail -5 "$tmp/rebuild.log")"
"$game" run game-verlet.toml --out results --quiet --no-report
"$game" check results > "$tmp/edited.txt" 2>&1
rc=$?
end=$(date +%s%N)
echo "edit-to-verdict: $(( (end - start) / 1000000 )) ms (rebuild, run, check; this machine, $(nproc) cores)"
[ $rc -eq 1 ] && grep -qE "FAIL .*\| game-verlet \| global order" "$tmp/edited.txt" &&
  ok "after the edit, the rebuilt program's gate fails the engine's Verlet (nothing reused from the old program's caches)" ||
  bad "after the edit (exit $rc): $(head -c 600 "$tmp/edited.txt")"

# A problem of one's own: the charged particle, and its variant whose exact solution turns the wrong way.
build_example charged-particle
particle="$tmp/charged-particle/build/particle_study"
cd "$tmp/charged-particle" || exit 1
expect "particle_study lists the charged particle beside the shipped problems" 0 "arenstorf.*charged-particle .*dim  3  exact yes" \
  bash -o pipefail -c "'$particle' list --problems | tr '\n' ' '"
expect "particle_study runs its spec, the reference solved in float128" 0 "" "$particle" run charged-particle.toml --out results --quiet --no-report
expect "its gate passes every integrator for velocity-dependent forces on it, rk4 and gauss-legendre4 at order 4" 0 \
  "PASS .*\| rk4 \| global order.*PASS .*\| gauss-legendre4 \| global order.*: 12 passed, 0 failed, 0 undetermined" \
  bash -o pipefail -c "'$particle' check results -v | tr '\n' ' '"
python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["studies"][0]["reference"]["error_bound"]
sys.exit(0 if isinstance(b, (int, float)) and 0 < b < 1e-20 else 1)' results/results.json &&
  ok "its reference is certified to better than 1e-20" || bad "the charged particle's reference error bound is not in (0, 1e-20)"
expect "the variant with the wrong exact solution is refused: exact() and the force disagree (exit 1)" 1 \
  "charged-particle-broken: its exact solution exact\(t\) and its equations of motion disagree by 1\.[0-9]" \
  "$particle" run charged-particle-broken.toml --out broken --quiet --no-report
[ ! -e broken/results.json ] && ok "nothing is written for the refused variant" || bad "the refused variant wrote results"
expect "velocity-verlet on the charged particle is refused: its force depends on velocity (exit 2)" 2 \
  "velocity-verlet needs a position-only force" \
  "$particle" run --problem charged-particle --integrators velocity-verlet --t-end 1 --dt 0.1 --out refused --quiet
expect "a parameter out of range names the problem's own rule (exit 2)" 2 "omega.*the cyclotron frequency must be > 0" \
  "$particle" run --problem charged-particle --param omega=-1 --integrators rk4 --t-end 1 --dt 0.1 --out refused --quiet
expect "study reference answers for the user's problem too, checked against its exact solution" 0 "two-tolerance\+exact" \
  "$particle" reference charged-particle --at 1,2

# The prefix moved: the programs were built against the old path; STUDY_DATA_DIR points them at the data.
mv "$p" "$tmp/moved"
expect "moved, the example's program says where it looked for the data and what to set (exit 2)" 2 "set STUDY_DATA_DIR" \
  "$particle" list --specs
expect "moved, with STUDY_DATA_DIR the example's study runs and its gate passes" 0 "0 failed" \
  env STUDY_DATA_DIR="$tmp/moved/share/ode_accuracy_harness" bash -c "'$particle' run charged-particle.toml --out again --quiet --no-report &&
           '$particle' check again"

finish
