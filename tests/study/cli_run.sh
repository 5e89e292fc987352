#!/usr/bin/env bash
# `study run` as a user meets it: bad input, a small study, Ctrl-C; and two processes sharing the reference cache.  Usage: cli_run.sh path/to/study
set -u
study=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*"; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

# A bad spec: exit 2, the message names file, line and key with a suggestion, and nothing is written.
printf 'name = "x"\nproblem = "kepler"\nt_end = 1.0\nintegrators = ["rk5"]\ndt = [0.1]\n' > "$tmp/bad.toml"
out=$("$study" run "$tmp/bad.toml" --out "$tmp/out" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "bad spec: exit code $rc, expected 2"
grep -qF "bad.toml:4: integrators: unknown integrator 'rk5' (did you mean 'rk4'?)" <<<"$out" || fail "bad spec message: $out"
[ ! -e "$tmp/out" ] || fail "a bad spec left output behind"
ok

# An unknown spec name: the nearest shipped one is suggested.
out=$("$study" run keplr --out "$tmp/out" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "did you mean 'kepler'" <<<"$out" || fail "unknown spec: exit $rc, $out"
ok

# A small study: results.json and the tables, progress as plain lines when not on a terminal.
printf 'name = "tiny"\nproblem = "harmonic"\nt_end = 2.0\nintegrators = ["rk4", "leapfrog"]\ndt = [0.1, 0.05, 0.025, 0.0125]\nmetrics = ["global", "energy"]\n' > "$tmp/tiny.toml"
"$study" run "$tmp/tiny.toml" --out "$tmp/res" --no-cache > "$tmp/stdout" 2> "$tmp/stderr" || fail "tiny study failed: $(cat "$tmp/stderr")"
[ -s "$tmp/res/results.json" ] && [ -s "$tmp/res/tiny/runs.csv" ] || fail "tiny study wrote no results"
grep -q "study run: runs 2/2" "$tmp/stderr" || fail "no plain progress lines: $(cat "$tmp/stderr")"
grep -q "rk4 .* global pass .*order" "$tmp/stdout" || fail "no summary: $(cat "$tmp/stdout")"
ok

# A re-run with a cache: every run from the run cache (said so), the same tables; --rerun measures them again.
"$study" run "$tmp/tiny.toml" --out "$tmp/c1" --cache-dir "$tmp/rc" > "$tmp/c1.out" 2>&1 || fail "cached tiny study failed: $(cat "$tmp/c1.out")"
"$study" run "$tmp/tiny.toml" --out "$tmp/c2" --cache-dir "$tmp/rc" > "$tmp/c2.out" 2>&1 || fail "warm tiny study failed: $(cat "$tmp/c2.out")"
"$study" run "$tmp/tiny.toml" --out "$tmp/c3" --cache-dir "$tmp/rc" --rerun > "$tmp/c3.out" 2>&1 || fail "--rerun failed: $(cat "$tmp/c3.out")"
! grep -q "from the run cache" "$tmp/c1.out" || fail "a cold run claims cached runs: $(cat "$tmp/c1.out")"
grep -qF "(8 of 8 runs from the run cache, timed again; --rerun measures them anew)" "$tmp/c2.out" || fail "warm run: $(cat "$tmp/c2.out")"
! grep -q "from the run cache" "$tmp/c3.out" || fail "--rerun took runs from the cache: $(cat "$tmp/c3.out")"
for table in orders.csv samples.csv; do
  cmp -s "$tmp/c1/tiny/$table" "$tmp/c2/tiny/$table" && cmp -s "$tmp/c1/tiny/$table" "$tmp/c3/tiny/$table" || fail "$table differs between cold, warm and --rerun"
done
ok

# Ctrl-C: exit 130, no results, no temporary files.
"$study" run kepler --no-cache --jobs 2 --out "$tmp/int" > /dev/null 2> "$tmp/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "interrupted run: exit code $rc, expected 130 ($(tail -2 "$tmp/int.err"))"
grep -q "interrupted; no results were written; with --no-cache nothing was kept (without it, each run that finishes is cached, and the same command resumes" "$tmp/int.err" ||
  fail "no interruption message: $(tail -2 "$tmp/int.err")"
[ ! -e "$tmp/int/results.json" ] || fail "an interrupted run wrote results.json"
# With a cache: what was kept, where, and that the same command resumes.
"$study" run kepler --cache-dir "$tmp/icache" --jobs 2 --out "$tmp/int2" > /dev/null 2> "$tmp/int2.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "interrupted run with a cache: exit code $rc, expected 130"
grep -qF "kept in the cache (references in $tmp/icache, runs in $tmp/icache/runs): the same command resumes from them" "$tmp/int2.err" ||
  fail "the interrupted run does not say what it kept: $(tail -2 "$tmp/int2.err")"
[ -z "$(find "$tmp" -name '.*tmp*')" ] || fail "temporary files left: $(find "$tmp" -name '.*tmp*')"
ok

# Two processes filling the same reference cache entry at once: both succeed, one sound file, then a hit.
cache="$tmp/cache"
"$study" reference pendulum --at 1,5,20 --cache-dir "$cache" > "$tmp/a.json" 2> "$tmp/a.err" & a=$!
"$study" reference pendulum --at 1,5,20 --cache-dir "$cache" > "$tmp/b.json" 2> "$tmp/b.err" & b=$!
wait $a || fail "first concurrent reference failed: $(cat "$tmp/a.err")"
wait $b || fail "second concurrent reference failed: $(cat "$tmp/b.err")"
[ "$(ls -A "$cache" | wc -l)" -eq 1 ] || fail "concurrent writers left $(ls -A "$cache")"
grep -v '"cached"' "$tmp/a.json" > "$tmp/a.states"; grep -v '"cached"' "$tmp/b.json" > "$tmp/b.states"
cmp -s "$tmp/a.states" "$tmp/b.states" || fail "concurrent writers computed different states"
"$study" reference pendulum --at 1,5,20 --cache-dir "$cache" | grep -q '"cached": true' || fail "no cache hit after concurrent fill"
ok

echo "$passed passed, 0 failed"
