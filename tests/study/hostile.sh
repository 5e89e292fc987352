#!/usr/bin/env bash
# The hostile-input corpus (issue 34): every key of a spec and of a method table given every kind of wrong value,
# command-line options given bad values, and results files broken one field at a time.  Each case expects a usage
# error (exit 2) that names what a user must fix: for a file, the file, the line and the key (the requirement, not
# this program's wording); for an option, the option.  Table-driven: a new key or value class is one word below.
# Usage: hostile.sh STUDY FIXTURE_DIR [EVERY] (FIXTURE_DIR holds a results.json: tests/reports/fixture).  EVERY=N
# runs every Nth case only (the sanitizer build, where each start costs a third of a second).
set -u
study=$(realpath "$1")
fixture=$(realpath "$2")
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
cd "$tmp" || exit 1
every=${3:-1}
cases=0
expect_case() {
  cases=$((cases + 1))
  if [ $((cases % every)) -eq 0 ]; then expect "$@"; fi
}

long=$(printf 'y%.0s' $(seq 1 5000))
# Values of every TOML kind that no key takes as they are: types, special numbers, out-of-range integers,
# control characters and NUL, shell and path syntax, a long string.
values=(true false 1979-05-27 07:32:00 '{ a = 1 }' '[[1]]' '[true]' '[]' '""' '"\u0007bell"' '"a\u0000b"' nan inf -inf
        -1 0 1e308 -1e308 4.9e-324 9223372036854775807 -9223372036854775808 '"x"' '"1/0"' '"$(touch owned)"'
        '"../../x"' '"0x10"' "\"$long\"")

# The values each key may legitimately take (a title may be any one line of text): left out of its cases.
accepts() {
  local key=$1 value=$2
  case "$key" in
    title | summary | source) [[ $value == \"* && $value != *'\u00'* && ${#value} -le 302 ]] ;;  # one line of text
    name) [[ $value =~ ^\"[a-z0-9][a-z0-9_-]{0,63}\"$ ]] ;;  # a study's name: lowercase, digits, - and _
    explicit) [[ $value == true || $value == false ]] ;;
    *) false ;;
  esac
}

# spec_case KEY VALUE: the base spec with KEY = VALUE (its line replaced, or appended): refused naming file:line: key.
base=('name = "h"' 'problem = "kepler"' 'integrators = ["rk4"]' 't_end = 1.0' 'dt = [0.1, 0.05]' 'metrics = ["global"]')
spec_case() {
  local key=$1 value=$2 line=0 i
  local lines=("${base[@]}")
  for i in "${!lines[@]}"; do
    if [[ ${lines[$i]} == "$key = "* ]]; then line=$((i + 1)); lines[$i]="$key = $value"; fi
  done
  if [ "$line" -eq 0 ]; then lines+=("$key = $value"); line=${#lines[@]}; fi
  printf '%s\n' "${lines[@]}" > "$tmp/s.toml"
  expect_case "spec $key = ${value:0:30}" 2 "s\.toml:$line: $key" \
    "$study" run "$tmp/s.toml" --out "$tmp/o" --no-cache -q --max-work 1e7
}
for key in name title problem params t_end integrators dt metrics energy_t_end energy_dt energy_tol repeats reference_tol samples \
           local_points expect varying_dt plot_dt methods accuracy vs; do
  for value in "${values[@]}"; do
    accepts "$key" "$value" || spec_case "$key" "$value"
  done
done

# table_case KIND KEY VALUE: a valid table of KIND with KEY = VALUE: refused naming file:line: methods.x.KEY.
declare -A tables=(
  [splitting]='kind = "splitting"|order = 2|drift = ["1/2", "1/2"]|kick = ["1"]'
  [runge-kutta]='kind = "runge-kutta"|order = 2|a = [[], ["1/2"]]|b = ["0", "1"]|c = ["0", "1/2"]'
  [nystrom]='kind = "nystrom"|order = 2|abar = [[], ["1/8"]]|bbar = ["1/6", "1/3"]|b = ["1/4", "3/4"]|c = ["0", "2/3"]'
  [composition]='kind = "composition"|order = 2|base = "leapfrog"|weights = ["1/2", "1/2"]')
table_case() {
  local kind=$1 key=$2 value=$3 line=0 i
  IFS='|' read -r -a lines <<< "${tables[$kind]}"
  lines=('[methods.x]' "${lines[@]}")
  for i in "${!lines[@]}"; do
    if [[ ${lines[$i]} == "$key = "* ]]; then line=$((i + 1)); lines[$i]="$key = $value"; fi
  done
  if [ "$line" -eq 0 ]; then lines+=("$key = $value"); line=${#lines[@]}; fi
  printf '%s\n' "${lines[@]}" > "$tmp/m.toml"
  expect_case "table $kind $key = ${value:0:30}" 2 "m\.toml:$line: methods\.x\.$key" "$study" method "$tmp/m.toml"
}
for value in "${values[@]}"; do
  for key in kind order drift kick summary source substeps; do accepts "$key" "$value" || table_case splitting "$key" "$value"; done
  for key in a b c explicit b_hat order_hat; do accepts "$key" "$value" || table_case runge-kutta "$key" "$value"; done
  for key in abar bbar; do table_case nystrom "$key" "$value"; done
  for key in base weights; do table_case composition "$key" "$value"; done
done

# Options given values they cannot take: refused before any work, naming the option.
run_cli=(run --problem kepler --integrators rk4 --t-end 1 --dt 0.1,0.05 --out "$tmp/o" --no-cache -q)
option_case() {
  local pattern=$1
  shift
  expect_case "option: ${*:1:7}" 2 "$pattern" "$study" "$@"
}
for v in 0 -1 257 nan abc 1.5 ''; do option_case "jobs" "${run_cli[@]}" --jobs "$v"; done
for v in 0 -1 nan inf abc 1e999 ''; do option_case "max-work|max-evaluations" "${run_cli[@]}" --max-work "$v"; done
for v in 0 -1 nan abc 3x 1e99 ''; do option_case "max-memory" "${run_cli[@]}" --max-memory "$v"; done
for v in 0 1 -1e-8 nan abc ''; do option_case "accuracy" "${run_cli[@]}" --accuracy "$v"; done
for v in '' rk5 RK4 'rk4;ls' '../x' "$long"; do option_case "vs" "${run_cli[@]}" --vs "$v"; done
for v in 0 -1 nan inf abc 1e400 ''; do
  option_case "t-end|t_end" run --problem kepler --integrators rk4 --t-end "$v" --dt 0.1 --out "$tmp/o" --no-cache -q
done
for v in 0 -0.1 nan abc 0.1,,0.05 0.1,abc 1e-400 ''; do
  option_case "dt" run --problem kepler --integrators rk4 --t-end 1 --dt "$v" --out "$tmp/o" --no-cache -q
done
for v in e= =1 e e=abc e=nan e=2 e=-1 zz=1 ''; do
  option_case "param|e|zz" run --problem kepler --param "$v" --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o" --no-cache -q
done
for v in rk5 rk4,, ',' RK4 'rk4;ls' ''; do
  option_case "integrators|rk5|RK4|rk4;ls|empty" run --problem kepler --integrators "$v" --t-end 1 --dt 0.1 --out "$tmp/o" --no-cache -q
done
for v in kepler2 Kepler '' '../x' 'kepler;ls'; do
  option_case "problem" run --problem "$v" --integrators rk4 --t-end 1 --dt 0.1 --out "$tmp/o" --no-cache -q
done
for v in nope Global 'global,' ''; do
  option_case "metric" run --problem kepler --integrators rk4 --t-end 1 --dt 0.1 --metrics "$v" --out "$tmp/o" --no-cache -q
done
for v in 'A B' '../x' '' "$long" 'plots'; do
  option_case "name" run --problem kepler --integrators rk4 --t-end 1 --dt 0.1 --name "$v" --out "$tmp/o" --no-cache -q
done
for v in -1 1e308 abc nan '' 1,1 2,1; do option_case "at" reference kepler --at "$v" --no-cache; done
for v in 0 1e-30 1e-5 nan abc ''; do option_case "tol" reference kepler --at 1 --tol "$v" --no-cache; done
for v in nope '' e=; do option_case "problem|param|unknown" reference "$v" --at 1 --no-cache; done
for v in nan inf -1 abc ''; do option_case "order-tolerance" check "$fixture" --order-tolerance "$v"; done
option_case "integrator" check "$fixture" --integrator ''
option_case "study" check "$fixture" --study ''
# A gate asked for an integrator or study its results do not hold fails (exit 1): what the CI asked for is missing.
expect_case "check --integrator rk9 that the results lack is a failure" 1 "rk9 .*presence.*missing" "$study" check "$fixture" --integrator rk9
expect_case "check --study nope that the results lack is a failure" 1 "nope .*presence.*missing" "$study" check "$fixture" --study nope
for v in nan -1 abc ''; do option_case "gnuplot-timeout" report "$fixture" --gnuplot-timeout "$v" --out "$tmp/r"; done
for v in '' nope RK4 'rk4;ls'; do option_case "vs" report "$fixture" --vs "$v" --out "$tmp/r"; done
for v in nope '' '../x'; do option_case "profile" run --profile "$v" --out "$tmp/o" --no-cache -q; done
for cmd in run report check compare history baseline bench method reference list; do
  # Either cause is named: the option nobody knows, or the argument the command needs first.
  option_case "--no-such-option|not expected|extras|required|give two" "$cmd" --no-such-option
done

# Results files broken one field at a time: study check and study report refuse them naming the field (exit 2).
results_case() {
  local what=$1 pattern=$2 sedexpr=$3
  rm -rf "$tmp/res" && mkdir -p "$tmp/res" && cp -r "$fixture"/. "$tmp/res/"
  sed -i "$sedexpr" "$tmp/res/results.json"
  expect_case "results ($what): check" 2 "$pattern" "$study" check "$tmp/res"
  expect_case "results ($what): report" 2 "$pattern" "$study" report "$tmp/res" --no-plots
}
results_case "schema a string" "schema_version" '0,/"schema_version": [0-9]*/s//"schema_version": "x"/'
results_case "schema from the future" "schema_version" '0,/"schema_version": [0-9]*/s//"schema_version": 999/'
results_case "a dt negative" "dt" '0,/"dt": [0-9.e-]*/s//"dt": -1/'
results_case "a dt a string" "dt" '0,/"dt": [0-9.e-]*/s//"dt": "0.1"/'
results_case "steps fractional" "steps" '0,/"steps": [0-9]*/s//"steps": 1.5/'
results_case "steps negative" "steps" '0,/"steps": [0-9]*/s//"steps": -4/'
results_case "a global error a string" "global" '0,/"global": [0-9.e-]*/s//"global": "small"/'
results_case "a global error negative" "global" '0,/"global": [0-9.e-]*/s//"global": -1e-3/'
results_case "a status unknown" "status" '0,/"status": "ok"/s//"status": "fine"/'
results_case "vs a method the study does not have" "vs: 'ghost' is not one of the study's methods" '0,/"plot_dt": /s//"vs": "ghost", "plot_dt": /'
results_case "vs not a string" "studies\\[0\\]\\.vs: must be a string" '0,/"plot_dt": /s//"vs": 4, "plot_dt": /'
results_case "a study name with a slash" "name" '0,/"name": "fixture"/s//"name": "a\/b"/'
results_case "a study name empty" "name" '0,/"name": "fixture"/s//"name": ""/'
results_case "the problem unknown" "problem" '0,/"problem": "[a-z-]*"/s//"problem": 7/'
results_case "truncated" "results.json" '$d'
results_case "not JSON" "results.json" '1s/^/garbage /'
results_case "studies not a list" "studies" '0,/"studies": \[/s//"studies": 5, "x": [/'
results_case "an integrator id empty" "integrator" '0,/"integrator": "[^"]*"/s//"integrator": ""/'
results_case "a NUL in a name" "name" '0,/"name": "fixture"/s//"name": "fix\\u0000ture"/'
results_case "an escape in a name" "name" '0,/"name": "fixture"/s//"name": "fix\\u001b[31mture"/'

# The tables beside results.json saying something else than it does (issue 34): a study's own output, edited.
"$study" run --problem harmonic --integrators rk4,leapfrog --t-end 1 --dt 0.1,0.05 --name fixture --out "$tmp/made" --no-cache -q > /dev/null 2>&1
csv_case() {
  local what=$1 pattern=$2
  shift 2
  rm -rf "$tmp/res" && cp -r "$tmp/made" "$tmp/res"
  "$@"
  expect_case "tables ($what): check" 2 "$pattern" "$study" check "$tmp/res"
  expect_case "tables ($what): report" 2 "$pattern" "$study" report "$tmp/res" --no-plots
}
csv_case "a run's global error edited" "runs.csv:2: global is 0.5, but results.json has" \
  sed -i '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,\)[^,]*/\10.5/' "$tmp/res/fixture/runs.csv"
csv_case "a run's row deleted" "runs.csv: 3 runs, but results.json has 4" sed -i '3d' "$tmp/res/fixture/runs.csv"
csv_case "a run's status edited" "runs.csv:2: status is diverged" sed -i '2s/,ok,/,diverged,/' "$tmp/res/fixture/runs.csv"
csv_case "a run's steps edited" "runs.csv:3: steps is 11" sed -i '3s/,20,ok,/,11,ok,/' "$tmp/res/fixture/runs.csv"
csv_case "two runs' rows swapped" "runs.csv:2: (integrator|dt) is" sed -i '2{h;d};3{G}' "$tmp/res/fixture/runs.csv"
csv_case "runs.csv deleted" "fixture/runs.csv: missing, but results.json has 4 runs" rm "$tmp/res/fixture/runs.csv"
csv_case "samples.csv deleted" "fixture/samples.csv: missing, but results.json has 4 runs" rm "$tmp/res/fixture/samples.csv"
# samples.csv is the report's (the gate does not read it): a sample of no run is refused as the report reads it.
rm -rf "$tmp/res" && cp -r "$tmp/made" "$tmp/res" && sed -i '2s/^[^,]*,/ghost,/' "$tmp/res/fixture/samples.csv"
expect_case "tables (a sample of a run that does not exist): report" 2 "samples.csv:2: a sample of 'ghost'" "$study" report "$tmp/res"
# Results larger than --max-memory allows once parsed (8 bytes a byte of results.json and of the largest table:
# here a samples.csv of 2 x 2 x 4096 rows, 2 MB).
printf 'name = "big"\nproblem = "harmonic"\nintegrators = ["rk4", "leapfrog"]\nmetrics = ["global"]\nt_end = 100\ndt = [0.01, 0.005]\nsamples = 4096\n' > "$tmp/big.toml"
"$study" run "$tmp/big.toml" --out "$tmp/big" -q --no-report > /dev/null 2>&1
for cmd in check report baseline compare history; do
  case $cmd in baseline) args=(--out "$tmp/b.toml") ;; compare | history) args=("$tmp/big" --out "$tmp/$cmd") ;; *) args=() ;; esac
  expect_case "results beyond --max-memory: $cmd" 2 "(big: reading these results|reading these 2 results folders together) would take about 1[0-9.]* MB of memory .*samples.csv.* above the limit of 10 MB; raise it with --max-memory" \
    "$study" $cmd "$tmp/big" --max-memory 10MB "${args[@]}"
done

finish
