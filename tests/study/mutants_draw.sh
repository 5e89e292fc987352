#!/usr/bin/env bash
# study/scripts/mutants draws the same mutants for the same seed, of every kind and from every layer, and refuses
# bad usage with exit status 2; no build (--dry-run).
set -uo pipefail
tool=$1
fail() { echo "mutants draw: $*"; exit 1; }
a=$(python3 "$tool" --dry-run --seed 7 --count 400) || fail "the dry run failed"
b=$(python3 "$tool" --dry-run --seed 7 --count 400) || fail "the second dry run failed"
[ "$a" = "$b" ] || fail "the same seed drew different mutants"
c=$(python3 "$tool" --dry-run --seed 8 --count 400)
[ "$a" != "$c" ] || fail "seeds 7 and 8 drew the same mutants"
[[ "$(head -1 <<< "$a")" =~ ^mutants:\ seed\ 7:\ 400\ of\ the\ [0-9]+\ mutants\ of\ [0-9]+\ files$ ]] || fail "header: $(head -1 <<< "$a")"
for kind in relational arithmetic logical literal index negation statement; do
  grep -q "  $kind " <<< "$a" || fail "no $kind mutant among 400"
done
for layer in integrators/ reference/ study/spec/ study/measure/ study/check/ reports/ study/methods/ study/problems/; do
  grep -q "^  $layer" <<< "$a" || fail "no mutant of $layer among 400"
done
! grep -qE "^  (study/scripts|study/bench|tests)/" <<< "$a" || fail "a mutant outside the scope"
# Without a seed, one is drawn and printed.
[[ "$(python3 "$tool" --dry-run --count 1 | head -1)" =~ ^mutants:\ seed\ [0-9]+: ]] || fail "no seed printed"
# --only narrows the draw to a folder.
python3 "$tool" --dry-run --seed 1 --count 20 --only study/fit | tail -n +2 | grep -qv "^  study/fit/" && fail "--only study/fit drew elsewhere"
for bad in "--count 0" "--resume" "--survivors" "--tally" "--only no/such/folder" "--verify" "--seed x" "--frobnicate"; do
  # shellcheck disable=SC2086
  python3 "$tool" --dry-run $bad > /dev/null 2>&1
  [ $? -eq 2 ] || fail "'$bad' did not exit 2"
done
# A --keep folder that cannot be written is a usage error in one line, before anything is copied or built.
out=$(timeout 20 python3 "$tool" --seed 1 --count 1 --keep /proc/no-such-folder 2>&1)
[ $? -eq 2 ] && grep -q "cannot work in that folder" <<< "$out" && ! grep -q Traceback <<< "$out" ||
  fail "an unwritable --keep folder: $out"
echo "mutants draw: ok"
