#!/usr/bin/env bash
# The CI gate, end to end.  Usage: check_gate.sh MODE path/to/study path/to/broken_study SOURCE_DIR
#   MODE pass:  the ci profile, run by `study run --profile ci`, passes `study check` against its committed
#               baseline (exit 0) and the JUnit file says so.
#   MODE <breakage>: the ci profile with one integrator deliberately broken fails `study check` (exit 1), with
#               FAIL lines that name the integrator and the metrics that must catch it.
set -u
mode=$1 study=$2 broken=$3 src=$4
baseline="$src/study/profiles/ci.baseline.toml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = pass ]; then
  "$study" run --profile ci --out "$tmp/res" --quiet --no-report || fail "study run --profile ci failed"
  "$study" check "$tmp/res" --baseline "$baseline" --junit "$tmp/junit.xml" > "$tmp/out"; rc=$?
  cat "$tmp/out"
  [ $rc -eq 0 ] || fail "study check exited $rc on the unbroken ci profile"
  grep -q "0 failed" "$tmp/out" || fail "no summary line"
  grep -q '<testsuites name="study check" tests="[1-9][0-9]*" failures="0"' "$tmp/junit.xml" || fail "JUnit: $(head -3 "$tmp/junit.xml")"
  for s in ci-harmonic ci-kepler ci-kepler-long ci-projectile; do grep -q "<testsuite name=\"$s\"" "$tmp/junit.xml" || fail "JUnit lacks $s"; done

  # The committed baseline is what this build measures: regenerated, it is the same bytes.
  "$study" baseline "$tmp/res" --out "$tmp/fresh.toml" > /dev/null || fail "study baseline failed"
  cmp -s "$tmp/fresh.toml" "$baseline" || fail "the regenerated baseline differs: $(diff "$baseline" "$tmp/fresh.toml" | head -5)"
  # Updating a file lists what moved and restores it.
  sed 's/^"0.01333333" = 2.011e-06$/"0.01333333" = 4.000e-06/' "$baseline" > "$tmp/edited.toml"
  "$study" baseline "$tmp/res" --out "$tmp/edited.toml" > "$tmp/update" || fail "study baseline (update) failed"
  grep -qF "changed  ci-kepler | rk4 | dt 0.01333333: 4.000e-06 -> 2.011e-06 (-49.7%)" "$tmp/update" || fail "update did not list the change: $(cat "$tmp/update")"
  cmp -s "$tmp/edited.toml" "$baseline" || fail "the updated baseline is not the committed one"

  # Unreadable input: exit 2 and a message naming the file (and line).
  "$study" check "$tmp/none" > "$tmp/err" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qF "none/results.json: no results file" "$tmp/err" || fail "missing results: exit $rc, $(cat "$tmp/err")"
  printf 'tolerance = 0.01\n["ci-kepler"."rk4"]\n"0.1" = "big"\n' > "$tmp/bad.toml"
  "$study" check "$tmp/res" --baseline "$tmp/bad.toml" > "$tmp/err" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qF 'bad.toml:3: "ci-kepler"."rk4"."0.1": must be a positive relative global error' "$tmp/err" ||
    fail "bad baseline: exit $rc, $(cat "$tmp/err")"
  [ ! -e "$tmp/junit-none.xml" ] || fail "junit written on bad input"
  # Bad options are usage errors: exit 2 (not CLI11's own codes).
  "$study" check "$tmp/res" --order-tolerance -1 > "$tmp/err" 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "check --order-tolerance -1: exit $rc, $(cat "$tmp/err")"
  "$study" check "$tmp/res" --frobnicate > "$tmp/err" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "frobnicate" "$tmp/err" || fail "check --frobnicate: exit $rc, $(cat "$tmp/err")"
  "$study" baseline "$tmp/res" > "$tmp/err" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q -- "--out" "$tmp/err" || fail "baseline without --out: exit $rc, $(cat "$tmp/err")"
  "$study" check --help > /dev/null 2>&1 || fail "check --help: exit $?"
  echo "gate: ok"
  exit 0
fi

# The breakage, the id it replaces, and the metrics that must catch it.
case "$mode" in
  # Inconsistent (its weights sum to 5/6): every global error is above 0.5, where no order is judged, but its
  # one-step error is O(dt): the local order fails.
  rk4-wrong-weight) id=rk4; must=("| rk4 | local order |" "| rk4 | exact on constant acceleration |" "| rk4 | error constant |") ;;
  velocity-verlet-no-half) id=velocity-verlet
    must=("| velocity-verlet | global order |" "| velocity-verlet | same positions as stormer-verlet |"
          "| velocity-verlet | exact on constant acceleration |" "| velocity-verlet | error constant |") ;;
  symplectic-euler-swapped) id=symplectic-euler
    # Still first order: the orders cannot see it; bounded energy, an identity and the baseline do.
    must=("| symplectic-euler | energy bounded |" "| symplectic-euler | same positions as stormer-verlet (backward-euler) |"
          "| symplectic-euler | error constant |") ;;
  rk2-midpoint-as-ralston) id=rk2-midpoint; must=("| rk2-midpoint | error constant |") ;;
  *) fail "unknown mode $mode" ;;
esac
"$broken" "$mode" "$tmp/res" "$src"/study/profiles/ci/*.toml > /dev/null || fail "broken_study $mode failed"
"$study" check "$tmp/res" --baseline "$baseline" --junit "$tmp/junit.xml" > "$tmp/out"; rc=$?
cat "$tmp/out"
[ $rc -eq 1 ] || fail "study check exited $rc with $mode, expected 1"
for m in "${must[@]}"; do grep -F "FAIL " "$tmp/out" | grep -qF "$m" || fail "no FAIL line with '$m'"; done
# Every failure is about the broken integrator (named as the integrator, or as the twin it is compared with).
grep "^FAIL " "$tmp/out" | grep -vF -- "$id" && fail "a FAIL line does not name $id"
grep -q "failures=\"[1-9]" "$tmp/junit.xml" || fail "JUnit reports no failure"
if [ "$mode" = symplectic-euler-swapped ]; then
  grep -F "FAIL " "$tmp/out" | grep -qF "| symplectic-euler | global order |" && fail "the order check should not see this one"
fi
if [ "$mode" = rk2-midpoint-as-ralston ]; then
  # Same order, another error constant: without the baseline the gate passes; the baseline is what catches it.
  "$study" check "$tmp/res" > "$tmp/nobase"; rc=$?
  [ $rc -eq 0 ] || fail "without a baseline, rk2 with Ralston's coefficients should pass (it is second order): $(grep FAIL "$tmp/nobase")"
fi
echo "gate: ok"
