#!/usr/bin/env bash
# `study compare` and `study history` end to end.  Usage: compare_cli.sh path/to/study path/to/broken_study
#   Two honest runs of one spec compare as nothing worse (exit 0), timing judged or not; a deliberately slowed RK4
#   (the same bits, 400 idle multiply-adds a step) is caught by --time-tolerance alone and named; RK2 with Ralston's
#   weights (still second order, another error constant) is caught by its error constant and named; bad input exits
#   2 with nothing written; history draws three folders.
set -u
study=$1 broken=$2
source "$(dirname "$0")/../support.sh"

cat > "$tmp/spec.toml" <<'EOF'
name = "cmp-kepler"
problem = "kepler"
params = { e = 0.6 }
t_end = 6.5
integrators = ["rk4", "rk2-midpoint", "velocity-verlet"]
dt = { max = 0.05, min = 0.0025, per_decade = 4 }
metrics = ["global", "local", "energy", "walltime"]
repeats = 3
EOF
cd "$tmp" || exit 1
"$study" run spec.toml --out before --quiet --no-report || { bad "study run (before)"; finish; }
"$study" run spec.toml --out after --quiet --no-report --rerun || { bad "study run (after)"; finish; }
"$broken" rk4-slowed slowed spec.toml > /dev/null || { bad "broken_study rk4-slowed"; finish; }
"$broken" rk2-midpoint-as-ralston ralston spec.toml > /dev/null || { bad "broken_study rk2-midpoint-as-ralston"; finish; }
"$broken" velocity-verlet-no-half no-half spec.toml > /dev/null || { bad "broken_study velocity-verlet-no-half"; finish; }

# Honest reruns: the same errors, nothing worse; the time per step within a factor 2 even on a busy machine.
expect "two honest runs: nothing worse (exit 0)" 0 "0 worse" "$study" compare before after --out cmp-honest
expect "two honest runs, timing judged at +100 %: nothing worse" 0 "0 worse" "$study" compare before after --out cmp-honest-t --time-tolerance 1
grep -q "^| rk4 | 4\.[0-9][0-9] \[.*\] → 4\.[0-9][0-9] \[.*\] | ×1\.000 " cmp-honest/COMPARE.md && ok "COMPARE.md: rk4's orders and error ratio 1" ||
  bad "COMPARE.md lacks rk4's row: $(grep '^| rk4' cmp-honest/COMPARE.md)"
grep -q "nothing worse" cmp-honest/COMPARE.md && [ -s cmp-honest/plots/compare-cmp-kepler.svg ] && ok "COMPARE.md says nothing is worse, with its plot" ||
  bad "COMPARE.md or its plot: $(head -12 cmp-honest/COMPARE.md)"

# The slowed RK4: caught by time only, named; without --time-tolerance timing never fails.
expect "a slowed rk4 passes when timing is not judged (exit 0)" 0 "0 worse" "$study" compare before slowed --out cmp-slow
expect "a slowed rk4 is caught by --time-tolerance 1 and named (exit 1)" 1 "WORSE cmp-kepler \(kepler\) \| rk4 \| time per step" \
  "$study" compare before slowed --out cmp-slow-t --time-tolerance 1
out=$("$study" compare before slowed --out cmp-slow-t --time-tolerance 1 2>&1)
[ "$(grep -c '^WORSE' <<<"$out")" -eq 1 ] && ok "the slowed rk4: its time per step is the only thing worse" ||
  bad "slowed: $(grep '^WORSE' <<<"$out")"

# rk2-midpoint as it was (Ralston's weights under its id) against the midpoint rule's own: still second order, but on
# this orbit six times the error -- a change that made it less accurate, caught by its error constant and named.
expect "a less accurate rk2-midpoint is caught by its error constant and named (exit 1)" 1 \
  "WORSE cmp-kepler \(kepler\) \| rk2-midpoint \| error constant .* error (\+[0-9.]+ %|× [0-9.]+)" \
  "$study" compare ralston before --out cmp-ralston --junit cmp-ralston.xml
grep -q '<testsuites name="study compare" tests="[0-9]*" failures="[1-9]' cmp-ralston.xml && grep -q '<failure message=".*rk2-midpoint' cmp-ralston.xml &&
  ok "--junit names the failure" || bad "junit: $(head -c 600 cmp-ralston.xml)"
grep -q "rk2-midpoint .*WORSE: error constant" <<<"$("$study" compare ralston before --out cmp-ralston 2>&1)" && ok "the table flags rk2-midpoint's row" ||
  bad "no WORSE flag in the table"
# The other way round the errors shrink: nothing worse.
expect "the same change undone (more accurate): nothing worse" 0 "0 worse" "$study" compare before ralston --out cmp-back
# Velocity Verlet without its 1/2: first order, its global errors above 0.5 (no global fit), caught by its local order
# falling from 3 to 2, its errors and its energy.
out=$("$study" compare before no-half --out cmp-no-half 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "WORSE cmp-kepler (kepler) | velocity-verlet | local order .*lower by 1\.0" <<<"$out" &&
  grep -q "WORSE cmp-kepler (kepler) | velocity-verlet | error constant" <<<"$out" &&
  grep -q "WORSE cmp-kepler (kepler) | velocity-verlet | energy .* bounded -> large" <<<"$out" &&
  ok "a velocity Verlet fallen to order 1 is caught by its local order, errors and energy (exit 1)" || bad "no-half (exit $rc): $out"

# Bad input: exit 2, nothing written.
expect "a missing folder: exit 2, named" 2 "nowhere/results.json: no results file" "$study" compare before nowhere --out cmp-bad
[ ! -e cmp-bad ] && ok "nothing written on bad input" || bad "cmp-bad was written"
expect "--out one of the compared folders: exit 2" 2 "is the results folder after or holds it" "$study" compare before after --out after
expect "--error-tolerance nan: exit 2" 2 "finite" "$study" compare before after --error-tolerance nan
expect "one folder only: exit 2, saying what to give" 2 "give two results folders, the old one first" "$study" compare before
expect "--accuracy 2: exit 2" 2 "from 1e-30 to below 1" "$study" compare before after --accuracy 2
expect "a mistyped option gets a suggestion" 2 "unknown option '--acuracy' \(did you mean '--accuracy'\?\)" "$study" report before --acuracy 1e-8
expect "report --out inside the results: exit 2" 2 "lies in the results folder before" "$study" report before --out before/cmp-kepler
expect "report --out holding other results: exit 2" 2 "holds results of its own" "$study" report before --out after
mkdir -p mine2 && echo "notes" > mine2/REPORT.md
expect "report --out a folder of the user's: exit 2" 2 "a folder of other files" "$study" report before --out mine2
[ "$(cat mine2/REPORT.md)" = "notes" ] && ok "the user's REPORT.md is untouched" || bad "mine2/REPORT.md replaced"
mkdir -p mine && echo "my notes" > mine/notes.txt
expect "--out a folder of the user's: exit 2" 2 "a folder of other files \(no COMPARE.md in it\)" "$study" compare before after --out mine
[ "$(cat mine/notes.txt)" = "my notes" ] && ok "the user's folder is untouched" || bad "mine/notes.txt changed"
mkdir -p hist0 && echo "# History" > hist0/HISTORY.md
expect "--out holding history's pages: exit 2" 2 "holds HISTORY.md" "$study" compare before after --out hist0
expect "--junit over a compared folder's results: exit 2" 2 "is an input of this command" "$study" compare before after --out cmp-j --junit after/results.json
expect "--junit in compare's own pages folder (replaced whole when published): exit 2" 2 "lies in the output folder cmp-j" \
  "$study" compare before after --out cmp-j --junit cmp-j/j.xml
[ ! -e after/j.xml ] && ok "nothing written into the results" || bad "after/j.xml written"
expect "a file given as a results folder: exit 2" 2 "is a file, not a results folder" "$study" compare before spec.toml --out cmp-f
sed 's/e = 0.6/e = 0.5/' spec.toml > other.toml
"$study" run other.toml --out other --quiet --no-report || bad "study run other.toml"
expect "another experiment under the same name is not compared, nothing blamed (exit 1: nothing judged)" 1 \
  "changed: cmp-kepler: the problem's parameters changed" "$study" compare before other --out cmp-other

# History over three folders: tables and plots.
expect "history of three folders" 0 "wrote hist/HISTORY.md with [0-9]+ plot" "$study" history before after slowed --out hist
times=$(awk '/^\*\*time per step\*\*/{f=1} f&&/^\| rk4 \|/{print; exit}' hist/HISTORY.md)
grep -Eq "^\| rk4 \| [0-9]+\.[0-9] \| [0-9]+\.[0-9] \| [0-9]+\.[0-9] \|$" <<<"$times" && ok "HISTORY.md: rk4's time per step in each folder" ||
  bad "HISTORY.md's time per step lacks rk4's row: '$times'"
[ -s hist/plots/history-cmp-kepler-constant.svg ] && [ -s hist/plots/history-cmp-kepler-time.svg ] && ok "history plots drawn" ||
  bad "history plots: $(ls hist/plots | head)"
expect "history of one folder: exit 2" 2 "at least two" "$study" history before
expect "history says where a study is another experiment" 0 "warning: in other another experiment under this name: the problem's parameters changed \(e 0.5 -> 0.6\)" \
  "$study" history other before --out hist-other
finish
