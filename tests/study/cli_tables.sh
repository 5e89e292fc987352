#!/usr/bin/env bash
# Your own method as a new user meets it: `study method`, a study from the command line with --methods, a spec on
# standard input, a table's cache key, bad tables and options, --version, the manual's tables (docs/method-tables.md).
# Usage: cli_tables.sh path/to/study source-dir
set -u
study=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*"; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }

# What the coefficients say, without running: a shipped table by id, a built-in's table, a file.
out=$("$study" method ruth3 rk4 2>&1) || fail "study method ruth3 rk4: $out"
grep -q "order        declared 3, predicted 3 from 12 conditions of Nystrom trees" <<<"$out" || fail "ruth3: $out"
grep -q "first failing order 5: sum b_i c_i^4 = 1/5" <<<"$out" || fail "rk4: $out"
ok

# A user's file with a deliberately wrong method: refused with the condition that fails, exit 2.
cat > "$tmp/mine.toml" <<'TOML'
[methods.my-verlet]
kind = "splitting"
first = "kick"
kick = ["1/2", "1/2"]
drift = ["1"]
order = 2
source = "a game engine's velocity Verlet"

[methods.my-rk3]
kind = "runge-kutta"
a = [[], ["1/2"], ["-1", "2"]]
b = ["1/6", "2/3", "1/6"]
order = 3
TOML
sed 's/order = 3/order = 4/' "$tmp/mine.toml" > "$tmp/wrong.toml"
out=$("$study" method "$tmp/wrong.toml" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "a too-high declared order: exit $rc"
grep -qF "wrong.toml:13: methods.my-rk3.order: declares order 4, but the coefficients have order 3: the order-4 condition" <<<"$out" ||
  fail "too-high order message: $out"
out=$("$study" method "$tmp/mine.toml" 2>&1) || fail "study method mine.toml: $out"
grep -q "^my-verlet  (.*mine.toml:1)" <<<"$out" && grep -q "source       a game engine's velocity Verlet" <<<"$out" &&
  grep -q "cost         1 force evaluation per step (first same as last)" <<<"$out" || fail "study method on a file: $out"
out=$("$study" method ruth33 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "did you mean 'ruth3'" <<<"$out" || fail "unknown method: exit $rc, $out"
ok

# A study from the command line, no spec file: built-in, shipped table and the user's tables side by side, the
# step sizes chosen as it runs.
"$study" run --problem kepler --param e=0.7 --integrators rk4,ruth3,my-verlet,my-rk3 --methods "$tmp/mine.toml" \
  --t-end 7.3 --dt auto --metrics global --out "$tmp/cli" --cache-dir "$tmp/cache" --no-report \
  > "$tmp/cli.out" 2> "$tmp/cli.err" || fail "command-line study: $(cat "$tmp/cli.err")"
for id in rk4 my-verlet my-rk3; do
  grep -q "^  $id  *global *pass" "$tmp/cli.out" || fail "$id not passed: $(cat "$tmp/cli.out")"
done
grep -q "^  ruth3  *global *\(pass\|undetermined\)" "$tmp/cli.out" || fail "ruth3 failed: $(cat "$tmp/cli.out")"
grep -q '"predicted": {' "$tmp/cli/results.json" && grep -q '"table": ".*mine.toml:1"' "$tmp/cli/results.json" ||
  fail "results.json lacks the tables' predictions"
"$study" report "$tmp/cli" --no-plots > /dev/null 2>&1
grep -Eq '^\| my-rk3 \| `.*mine.toml:9` \| 3 \| 3 \| (2\.9[0-9]|3\.0[0-9]) \|' "$tmp/cli/kepler/REPORT.md" ||
  fail "the study's page lacks the table methods' orders: $(grep -A5 'coefficient tables' "$tmp/cli/kepler/REPORT.md")"
ok

# The same coefficients written otherwise are the same method: its runs come from the run cache.  Changed ones
# are measured again (the coefficients are part of the cache key, not only the id).
sed 's|kick = \["1/2", "1/2"\]|kick = ["0.5", "0.5"]|' "$tmp/mine.toml" > "$tmp/same.toml"
"$study" run --problem kepler --param e=0.7 --integrators my-verlet --methods "$tmp/same.toml" --t-end 7.3 --dt auto \
  --metrics global --out "$tmp/cli2" --cache-dir "$tmp/cache" --no-report > "$tmp/cli2.out" 2>&1 || fail "re-run: $(cat "$tmp/cli2.out")"
grep -Eq "\(([0-9]+) of \1 runs from the run cache" "$tmp/cli2.out" ||
  fail "the same coefficients were not taken from the cache: $(cat "$tmp/cli2.out")"
sed 's|kick = \["1/2", "1/2"\]|kick = ["0.6", "0.4"]|; s|^order = 2|order = 1|' "$tmp/mine.toml" > "$tmp/other.toml"
"$study" run --problem kepler --param e=0.7 --integrators my-verlet --methods "$tmp/other.toml" --t-end 7.3 --dt auto \
  --metrics global --out "$tmp/cli3" --cache-dir "$tmp/cache" --no-report > "$tmp/cli3.out" 2>&1 || fail "changed table: $(cat "$tmp/cli3.out")"
! grep -q "from the run cache" "$tmp/cli3.out" || fail "a changed table was taken from the cache: $(cat "$tmp/cli3.out")"
grep -q "^  my-verlet  *global *pass .*(expected 1)" "$tmp/cli3.out" || fail "the changed table's order: $(cat "$tmp/cli3.out")"
ok

# A spec on standard input.
printf 'name = "piped"\nproblem = "harmonic"\nt_end = 1.0\nintegrators = ["kutta3"]\ndt = [0.1, 0.05, 0.025]\nmetrics = ["global"]\n' |
  "$study" run - --out "$tmp/piped" --no-cache --no-report > "$tmp/piped.out" 2>&1 || fail "spec on stdin: $(cat "$tmp/piped.out")"
grep -q "piped (harmonic): 3 runs" "$tmp/piped.out" || fail "spec on stdin: $(cat "$tmp/piped.out")"
printf 'name = "piped"\nproblem = "harmonic"\nt_end = 1.0\nintegrators = ["kutta4"]\ndt = [0.1]\n' |
  "$study" run - --out "$tmp/piped2" --no-cache > "$tmp/piped2.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -qF "<stdin>:4: integrators: unknown integrator 'kutta4'" "$tmp/piped2.out" || fail "bad stdin spec: exit $rc, $(cat "$tmp/piped2.out")"
ok

# Bad command-line studies: clear errors, exit 2, nothing written.
out=$("$study" run --problem kepler --integrators rk4 --t-end 2 --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "needs --dt" <<<"$out" || fail "missing --dt: exit $rc, $out"
out=$("$study" run --problem kepler --param e= --integrators rk4 --t-end 2 --dt 0.1 --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "is not of the form name=value" <<<"$out" || fail "--param e=: exit $rc, $out"
out=$("$study" run --problem kepler --param e=0.1 --param e=0.2 --integrators rk4 --t-end 2 --dt 0.1 --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF -- "--param e is given twice" <<<"$out" || fail "repeated --param: exit $rc, $out"
out=$("$study" run --problem kepler --integrators rk4 --t-end 2 --dt 0.3 --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "command line: dt: dt = 0.3 does not divide t_end = 2" <<<"$out" || fail "bad --dt: exit $rc, $out"
out=$("$study" run --problem kepler --integrators rk4 --t-end 2 --dt 0.1 --methods "$tmp/wrong.toml" --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "declares order 4" <<<"$out" || fail "a wrong --methods file: exit $rc, $out"
printf '[methods.ruth3]\nkind = "runge-kutta"\na = [[]]\nb = ["1"]\norder = 1\n' > "$tmp/shadow.toml"
# A table of the user's named like a shipped one takes its place (the library grows; theirs keeps meaning theirs):
# ruth3 here is a 1-stage Runge-Kutta table of order 1, and that is what runs.
out=$("$study" run --problem kepler --integrators ruth3 --t-end 2 --dt 0.1,0.05,0.025 --metrics global --methods "$tmp/shadow.toml" \
      --out "$tmp/shadow-out" --no-cache 2>&1); rc=$?
[ $rc -eq 0 ] && grep -qF "\"table\": \"$tmp/shadow.toml:1\"" "$tmp/shadow-out/results.json" &&
  grep -qF '"declared_order": 1' "$tmp/shadow-out/results.json" || fail "a table named like a shipped one: exit $rc, $out"
printf 'name = "p"\nproblem = "harmonic"\nt_end = 1.0\nintegrators = ["rk4"]\ndt = [0.1]\n' > "$tmp/p.toml"
out=$("$study" run "$tmp/p.toml" --param omega=3 --out "$tmp/bad" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "which needs --problem" <<<"$out" || fail "--param with a spec file: exit $rc, $out"
[ ! -e "$tmp/bad" ] || fail "a bad command-line study left output behind"
ok

# The version and the source revision; study list shows the method tables with their sources.
out=$("$study" --version 2>&1) || fail "--version: $out"
grep -Eq "^study [0-9]+\.[0-9]+\.[0-9]+ \(source revision .+\)$" <<<"$out" || fail "--version: $out"
out=$("$study" list --integrators 2>&1) || fail "study list: $out"
grep -q "kahan-li8 .* 8 .* 8 .*Kahan & Li" <<<"$out" || fail "study list lacks the tables: $out"
ok

# The manual's tables read as it says: the format's example, and the walk-through's (with its typo, then fixed).
awk '/^\*\*The format\*\*/{f=1} f&&/^```toml/{g=1;next} g&&/^```/{exit} g{print}' "$src/docs/method-tables.md" > "$tmp/format.toml"
out=$("$study" method "$tmp/format.toml" 2>&1) || fail "the manual's format example: $out"
[ "$(grep -c "^  order        declared \([0-9]\), predicted \1 " <<<"$out")" -eq 4 ] || fail "the manual's format example: $out"
awk '/^# Study your own method/{f=1} f&&/^cat > walk.toml/{g=1;next} g&&/^TOML$/{exit} g{print}' "$src/docs/method-tables.md" > "$tmp/walk.toml"
out=$("$study" method "$tmp/walk.toml" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qF "walk.toml:14: methods.my-rk3.order: declares order 3, but the coefficients have order 2" <<<"$out" ||
  fail "the manual's walk-through: exit $rc, $out"
sed -i 's/\["-1.5", "2.5"\]/["-1", "2"]/' "$tmp/walk.toml"
out=$("$study" method "$tmp/walk.toml" 2>&1) && grep -q "declared 4, predicted 4 from 21 conditions" <<<"$out" || fail "the walk-through fixed: $out"
ok

echo "$passed passed, 0 failed"
