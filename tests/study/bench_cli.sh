#!/usr/bin/env bash
# `study bench` as a user meets it: a short run writes bench.json and the report then carries the table; bad
# options exit 2 with a message and write nothing.  Usage: bench_cli.sh path/to/study path/to/fixture/results.json
set -u
study=$1
fixture=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*"; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

# A short run (timings meaningless, the plumbing is what is tested): the pairs are checked, bench.json written,
# the table printed, and a results directory gets the section in its report.
mkdir -p "$tmp/res"
cp -r "$(dirname "$fixture")/." "$tmp/res/"  # results.json and its tables
"$study" bench --out "$tmp/res" --min-time 0.0001 --repetitions 2 --filter 'kepler/(rk4|velocity-verlet|yoshida4)' \
  > "$tmp/stdout" 2> "$tmp/stderr" || fail "study bench failed: $(cat "$tmp/stderr")"
grep -q "ok   kepler  *rk4  *vs odeint runge_kutta4" "$tmp/stderr" || fail "no pair check for rk4: $(cat "$tmp/stderr")"
grep -q "ok   kepler  *rk4 (table)  *vs rk4 .*the same bits" "$tmp/stderr" || fail "no same-bits check of rk4's table: $(cat "$tmp/stderr")"
grep -q "bench: 22/22 timings (100%)" "$tmp/stderr" || fail "no progress line: $(cat "$tmp/stderr")"
grep -q '"problem": "kepler"' "$tmp/res/bench.json" || fail "bench.json lacks kepler"
grep -q '"odeint_ratio"' "$tmp/res/bench.json" || fail "bench.json lacks the ratios"
grep -q "6 pairs, all agreeing" "$tmp/stdout" || fail "no table on stdout: $(cat "$tmp/stdout")"
grep -q "^| a coefficient table / its built-in ≤ 1.2 | [0-3] of 3 pairs |" "$tmp/res/BENCH.md" || fail "BENCH.md lacks the tables' goal"
grep -q "^| yoshida4 | [0-9.]* | .* | \*\*[0-9.]*\*\* |$" "$tmp/res/BENCH.md" || fail "BENCH.md lacks yoshida4's table row"
grep -q "^| rk4 | .* | \`runge_kutta4\` | .* | \*\*[0-9.]*\*\* |$" "$tmp/res/BENCH.md" || fail "BENCH.md lacks the rk4 row"
grep -q "# Time per step against Boost.Odeint" "$tmp/res/BENCH.md" || fail "BENCH.md lacks its heading"
grep -qF "[BENCH.md](BENCH.md)" "$tmp/res/REPORT.md" || fail "REPORT.md does not link BENCH.md"
! grep -q "^### harmonic" "$tmp/res/BENCH.md" || fail "a problem filtered out still has a table"
ok

# Without results.json: bench.json is written and the user is told what the report needs.
"$study" bench --out "$tmp/alone" --min-time 0.0001 --repetitions 1 --filter 'harmonic/euler' > "$tmp/stdout" 2>&1 \
  || fail "bench without results failed: $(cat "$tmp/stdout")"
[ -s "$tmp/alone/bench.json" ] && grep -q "no results.json in $tmp/alone" "$tmp/stdout" || fail "alone: $(cat "$tmp/stdout")"
ok

# Bad options: exit 2, a message naming the option, nothing written.
out=$("$study" bench --out "$tmp/bad" --filter '(' 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "study bench: --filter '(': not a regular expression" <<<"$out" || fail "bad regex: exit $rc, $out"
out=$("$study" bench --out "$tmp/bad" --filter 'no-such-integrator' 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "matches no benchmark (names are problem/integrator, e.g. kepler/rk4)" <<<"$out" || fail "empty filter: exit $rc, $out"
out=$("$study" bench --out "$tmp/bad" --repetitions 0 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "repetitions" <<<"$out" || fail "repetitions 0: exit $rc, $out"
[ ! -e "$tmp/bad" ] || fail "a refused bench left output behind"
ok

# A signal during the timings stops them within a second: exit 128 + its number (130, 143), no bench.json (issue 34).
for sig in INT TERM; do
  "$study" bench --out "$tmp/sig$sig" --min-time 1 --repetitions 3 > "$tmp/sig.out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do grep -q "timings of" "$tmp/sig.out" && break; sleep 0.05; done  # the timing has begun
  sleep 0.3
  start=$(date +%s%N)
  kill -$sig $pid
  wait $pid
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  [ $rc -eq $((128 + $(kill -l $sig))) ] && [ $ms -lt 1000 ] && [ ! -e "$tmp/sig$sig/bench.json" ] && grep -q "study bench: interrupted" "$tmp/sig.out" ||
    fail "SIG$sig during the timings: exit $rc after $ms ms: $(tail -c 300 "$tmp/sig.out")"
  echo "SIG$sig stopped study bench in $ms ms"
done
ok

echo "$passed passed, 0 failed"
