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
header='^mutants: seed 7: 400 of the [0-9]+ mutants of [0-9]+ files \(([0-9]+) % in headers, which hold ([0-9]+) % of the lines of code\)$'
[[ "$(head -1 <<< "$a")" =~ $header ]] || fail "header: $(head -1 <<< "$a")"
# Headers count like sources: their share of the draw is their share of the code (to the rounding of 400).
(( ${BASH_REMATCH[1]} - ${BASH_REMATCH[2]} <= 1 && ${BASH_REMATCH[2]} - ${BASH_REMATCH[1]} <= 1 )) || fail "headers' share: $(head -1 <<< "$a")"
hpp=$(grep -c '^  [^ ]*\.hpp:' <<< "$a")
(( hpp >= 100 )) || fail "only $hpp of 400 mutants in headers"
# Every kind has its share, the slips a person makes among them.
for kind in relational arithmetic logical literal index negation statement variable condition factor bound; do
  n=$(grep -c "  $kind " <<< "$a")
  (( n >= 30 )) || fail "$n $kind mutants among 400 (an equal share is 36)"
done
# --kinds narrows the draw to those kinds.
python3 "$tool" --dry-run --seed 2 --count 40 --kinds bound,factor | tail -n +2 | grep -vqE "  (bound|factor) " && fail "--kinds bound,factor drew another kind"
# The slips themselves, on lines worked by hand (the script's own functions, no file).
python3 - "$tool" <<'PY' || fail "a slip operator"
import sys
m = {"__file__": sys.argv[1], "__name__": "draw-test"}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), m)
def slips(line, kind, window=()):
    out = set()
    for a, b, new, k in m["slip_sites"](line, [(1, w) for w in window]):
        if k == kind:
            out.add(line[:a] + new + line[b:])
    return out
want = {
    ("for (std::size_t i = 0; i < n; ++i) s += w[j];", "bound"):
        {"for (std::size_t i = 0; i < n + 1; ++i) s += w[j];", "for (std::size_t i = 0; i < n - 1; ++i) s += w[j];"},
    ("for (int k = 0; k + 1 < v.size(); ++k) f(k);", "bound"):
        {"for (int k = 0; k + 1 < v.size() + 1; ++k) f(k);", "for (int k = 0; k + 1 < v.size() - 1; ++k) f(k);"},
    ("if (lo < x && x < hi) return;", "condition"): {"if (x < hi) return;", "if (lo < x) return;"},
    ("const bool apart = a.hi < b.lo || a.lo > b.hi;", "condition"):
        {"const bool apart = a.lo > b.hi;", "const bool apart = a.hi < b.lo;"},
    ("if (const auto n = f(); n != 0 && ok) g();", "condition"): {"if (const auto n = f(); ok) g();", "if (const auto n = f(); n != 0) g();"},
    ("const double y = 0.5 * h * f(x[i]);", "factor"):
        {"const double y = h * f(x[i]);", "const double y = 0.5 * f(x[i]);", "const double y = 0.5 * h;"},
    ("z = x / (1 + y);", "factor"): {"z = x;"},
    ("t = 1e-12 * p.period;", "factor"): {"t = p.period;", "t = 1e-12;"},
    ("s += w[i] * g[j];", "variable"): {"s += w[j] * g[j];", "s += w[i] * g[i];"},
    ("d = old_hi - old_lo;", "variable"): {"d = old_lo - old_lo;", "d = old_hi - old_hi;", "d = new_hi - old_lo;", "d = old_hi - new_lo;"},
}
windows = {"s += w[i] * g[j];": ["for (i = 0; i < 3; ++i)", "for (j = 0; j < 3; ++j)"],
           "d = old_hi - old_lo;": ["new_lo = 1, new_hi = 2;"]}
for (line, kind), expected in want.items():
    got = slips(line, kind, windows.get(line, ()))
    if got != expected:
        print(f"{kind} of {line!r}: {sorted(got)}, expected {sorted(expected)}")
        sys.exit(1)
PY
for layer in integrators/ reference/ study/spec/ study/measure/ study/check/ reports/ study/methods/ study/problems/; do
  grep -q "^  $layer" <<< "$a" || fail "no mutant of $layer among 400"
done
! grep -qE "^  (study/scripts|study/bench|tests)/" <<< "$a" || fail "a mutant outside the scope"
# Without a seed, one is drawn and printed.
[[ "$(python3 "$tool" --dry-run --count 1 | head -1)" =~ ^mutants:\ seed\ [0-9]+: ]] || fail "no seed printed"
# --only narrows the draw to a folder.
python3 "$tool" --dry-run --seed 1 --count 20 --only study/fit | tail -n +2 | grep -qv "^  study/fit/" && fail "--only study/fit drew elsewhere"
for bad in "--count 0" "--resume" "--survivors" "--tally" "--only no/such/folder" "--verify" "--seed x" "--frobnicate" "--kinds nonsense"; do
  # shellcheck disable=SC2086
  python3 "$tool" --dry-run $bad > /dev/null 2>&1
  [ $? -eq 2 ] || fail "'$bad' did not exit 2"
done
# A --keep folder that cannot be written is a usage error in one line, before anything is copied or built.
out=$(timeout 20 python3 "$tool" --seed 1 --count 1 --keep /proc/no-such-folder 2>&1)
[ $? -eq 2 ] && grep -q "cannot work in that folder" <<< "$out" && ! grep -q Traceback <<< "$out" ||
  fail "an unwritable --keep folder: $out"
echo "mutants draw: ok"
