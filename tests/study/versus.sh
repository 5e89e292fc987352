#!/usr/bin/env bash
# The head-to-head answer as a user asks for it: "is mine cheaper than dopri5 here, by how much, and is it real?"
# A spec's `vs`, study run --vs and study report --vs; the adaptive pairs in the report's cost table beside the
# fixed-step method; a method named by id or label; every wrong name refused before anything is written.
# Usage: versus.sh path/to/study.  Prints "N passed, M failed".
set -u
study=$1
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
export HOME="$tmp/home" STUDY_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME"
cd "$tmp" || exit 1

# Kepler e = 0.5 over one orbit (its exact solution: no reference to solve), rk4 at four steps, three pairs at 13
# tolerances; one repeat (the wall-time figures are not what is tested).
cat > versus.toml <<'SPEC'
name = "versus"
problem = "kepler"
params = { e = 0.5 }
t_end = 6.283185307179586
integrators = ["rk4"]
dt = [0.04908738521234052, 0.02454369260617026, 0.01227184630308513, 0.006135923151542565]
adaptive = ["dopri5", "fehlberg78", "odeint-dopri5"]
tol = { max = 1e-4, min = 1e-10, per_decade = 2 }
samples = 8
repeats = 1
SPEC

# study run --vs by id: the pair's, the study's one method of that id; the terminal says each other method's ratio.
ratio='[0-9.]+× \([0-9.]+–[0-9.]+\) (cheaper|dearer|tie)'
expect "study run --vs dopri5 names the pair and prints each other method's cost over its, with the interval and a verdict" 0 \
  "head to head against 'dopri5 \(adaptive\)'.*versus 1e-03: rk4 $ratio; fehlberg78 \(adaptive\) $ratio; odeint-dopri5 $ratio" \
  bash -o pipefail -c "'$study' run versus.toml --out res --vs dopri5 | tr '\n' ' '"
page=res/versus/REPORT.md
grep -q '"vs": "dopri5 (adaptive)"' res/results.json && ok "results.json keeps the method measured against, by its label" ||
  bad "results.json has no vs: $(grep -o '"vs"[^,]*' res/results.json)"
grep -qE '^\| fehlberg78 \(adaptive\) \| [0-9.e+]+ \|' "$page" && grep -qE '^\| rk4 \| ' "$page" &&
  ok "the per-method cost table holds the adaptive pairs beside rk4" || bad "the cost table: $(grep -A8 'Force evaluations to reach' "$page")"
grep -qF '**Head to head against dopri5 (adaptive)**' "$page" && grep -qE '^\| dopri5 \(adaptive\)'"'"'s own \| [0-9]' "$page" &&
  grep -qE '^\| wall time over dopri5 \(adaptive\)'"'"'s \|' "$page" &&
  ok "the study's page has the head-to-head, by force evaluations and by wall time, with the reference's own costs" ||
  bad "no head-to-head on the page: $(grep -n -A6 'Head to head' "$page" | head -c 600)"
# An identical pair (Odeint's dopri5 takes our steps to the bit) is a tie at exactly 1 wherever both have a cost.
row=$(grep -A6 '^| force evaluations over dopri5' "$page" | grep -E '^\| odeint-dopri5 \| ')
grep -qE '^(\| odeint-dopri5 |\| 1× \([0-9.]+–[0-9.]+\) tie |)+\|$' <<<"$row" &&
  ok "Odeint's dopri5 against ours: 1× and a tie at every target" || bad "odeint-dopri5's row: $row"

# study report --vs overrides the study's own; a label works as well as an id.
expect "study report --vs with a label measures against that method instead" 0 "head to head against 'fehlberg78 \(adaptive\)'" \
  "$study" report res --vs "fehlberg78 (adaptive)"
grep -qF '**Head to head against fehlberg78 (adaptive)**' "$page" && ok "the page follows --vs" || bad "the page did not follow --vs"

# Wrong names: usage errors (exit 2) naming the methods there are, nothing written.
cp -r res before
expect "study report --vs with a name of no method is refused, listing the methods" 2 \
  "--vs nobody: names no method of these results.*versus: rk4, dopri5 \(adaptive\), fehlberg78 \(adaptive\), odeint-dopri5" \
  "$study" report res --vs nobody
diff -r before res > /dev/null && ok "a refused --vs leaves the report as it was" || bad "a refused --vs changed the report"
expect "study run --vs with a name of no method is refused before anything runs" 2 "--vs rk5: in no study: versus: 'rk5' names none of the study's methods" \
  "$study" run versus.toml --out refused --vs rk5
printf 'vs = "odeint"\n' | cat versus.toml - > bad.toml
expect "a spec's vs naming no method is refused, naming file, line and key" 2 "bad.toml:11: vs: 'odeint' names none of the study's methods; they are: rk4, dopri5 \(adaptive\)" \
  "$study" run bad.toml --out refused
printf 'adaptive = ["dopri5", { id = "dopri5", controller = "pi" }]\ntol = { max = 1e-4, min = 1e-6, per_decade = 1 }\nvs = "dopri5"\n' |
  cat <(grep -v '^adaptive\|^tol' versus.toml) - > twice.toml
expect "a spec's vs by an id two methods share asks for a label" 2 "vs: 'dopri5' is the id of 2 of the study's methods; give one's label: dopri5 \(adaptive\), dopri5 \(adaptive, pi\)" \
  "$study" run twice.toml --out refused
[ ! -e refused ] && ok "nothing is written for a refused vs" || bad "a refused vs left output"
# results.json edited by hand to name a method the study does not have: refused, naming the field.
sed -i 's/"vs": "dopri5 (adaptive)"/"vs": "tsit5"/' res/results.json
expect "results.json whose vs names no method of its study is refused, naming the field" 2 \
  "results.studies\[0\].vs: 'tsit5' is not one of the study's methods" "$study" report res
# A scan of adaptive pairs only: their costs drawn against the parameter, "—" for a plot step they do not have, and
# the head-to-head as a line per point.
cat > ascan.toml <<'SPEC'
name = "ascan"
problem = "kepler"
t_end = 6.283185307179586
adaptive = ["dopri5", "fehlberg78"]
tol = { max = 1e-4, min = 1e-10, per_decade = 2 }
samples = 8
repeats = 1
scan = { e = [0.1, 0.5, 0.8] }
vs = "dopri5"
SPEC
expect "a scan of adaptive pairs runs, with a spec's vs" 0 "" "$study" run ascan.toml --out scan -q
data=scan/plots/ascan-scan-cost-e.dat
[ "$(grep -c '^# dopri5 (adaptive)$\|^# fehlberg78 (adaptive)$' "$data")" -eq 2 ] && [ "$(grep -c '^[0-9]' "$data")" -eq 6 ] &&
  ok "the scan's cost plot draws both pairs at the three points" || bad "the scan's cost data: $(cat "$data")"
grep -qE '^\| \[e = 0\.5\]\(ascan_e-0p5/REPORT\.md\) \| [0-9]+ \| 0 \| [0-9]+ \| 0 \| — \| fehlberg78' scan/SCAN-ascan.md &&
  ok "the scan's table: no plot step without fixed steps, and the cheapest pair" || bad "the scan's table: $(grep -A5 '^| point' scan/SCAN-ascan.md)"
[ "$(grep -A6 '^\*\*Head to head against dopri5 (adaptive)\*\*' scan/SCAN-ascan.md | grep -cE '^\| e = 0\.[158] \| [0-9.e+]+ ±[0-9.]+ % \| \**'"$ratio")" -eq 3 ] &&
  ok "the scan's head-to-head: a line per point, the pair's own cost and the other's ratio with its verdict" ||
  bad "the scan's head-to-head: $(grep -A6 'Head to head' scan/SCAN-ascan.md)"
# A study of pairs only has its costs and its head-to-head on its page too; with one repeat, wall time decides nothing.
point=scan/ascan_e-0p5/REPORT.md
grep -A4 '^| force evaluations over dopri5' "$point" | grep -qE '^\| fehlberg78 \(adaptive\) \| .*\*\*0\.[0-9]+× \([0-9.]+–[0-9.]+\) cheaper\*\* \|' &&
  ok "a pairs-only study's page: the head-to-head by force evaluations" || bad "no head-to-head on $point: $(grep -A8 'Head to head' "$point")"
grep -A4 '^| wall time over dopri5' "$point" | grep -E '^\| fehlberg78' | grep -q 'cannot tell' &&
  grep -qF "fehlberg78 (adaptive), 1e-03: fehlberg78 (adaptive)'s wall time is one measurement" "$point" &&
  ok "by wall time one repeat decides nothing, and the page says why" || bad "wall time with one repeat: $(grep -A4 '^| wall time over' "$point")"
# study compare and study history carry the pairs: one pair made three times as dear (results.json and adaptive.csv
# alike) is worse by its cost to each accuracy; history tabulates each pair's cost and slope folder by folder.
sed -i 's/"vs": "tsit5"/"vs": "dopri5 (adaptive)"/' res/results.json
cp -r res dear
python3 - dear <<'PY'
import csv, json, sys
d = sys.argv[1]
doc = json.load(open(d + "/results.json"))
for r in doc["studies"][0]["adaptive"]["runs"]:
    if r["integrator"] == "fehlberg78 (adaptive)": r["force_evals"] *= 3
json.dump(doc, open(d + "/results.json", "w"), indent=1)
rows = list(csv.reader(open(d + "/versus/adaptive.csv")))
k = rows[0].index("force_evals")
for row in rows[1:]:
    if row[0] == "fehlberg78 (adaptive)": row[k] = repr(float(row[k]) * 3)
csv.writer(open(d + "/versus/adaptive.csv", "w", newline=""), lineterminator="\n").writerows(rows)
PY
expect "study compare: a pair three times as dear is worse by its cost to each accuracy (exit 1)" 1 \
  "WORSE versus \(kepler\) \| fehlberg78 \(adaptive\) \| cost to accuracy .*\| × 3 force evaluations to reach.*comparisons of 4 methods" \
  bash -o pipefail -c "'$study' compare res dear --out cmp | tr '\n' ' '"
expect "study history: each pair's cost to an accuracy and its slope, folder by folder" 0 \
  "fehlberg78 \(adaptive\) +\| slope [0-9.]+ · [0-9.e+]+ to 1e-0[0-9] \| slope [0-9.]+ · [0-9.e+]+ to" \
  "$study" history res dear --out hist
grep -qE '^\| fehlberg78 \(adaptive\) \| [0-9.]+ \| [0-9.]+ \|$' hist/HISTORY.md && ok "HISTORY.md tabulates each pair's slope" ||
  bad "no slope row in HISTORY.md: $(grep -A6 'tolerance proportionality' hist/HISTORY.md)"
# One copy of each number: an adaptive result edited by hand in one place is refused, naming both copies (exit 2).
edit_case() {  # edit_case WHAT PATTERN PYTHON: the edit applied to a copy of res, then study check and study report
  rm -rf edited && cp -r res edited
  python3 -c "import json; d = json.load(open('edited/results.json')); a = d['studies'][0]['adaptive']; $3
json.dump(d, open('edited/results.json', 'w'), indent=1)"
  expect "$1: study check refuses it (exit 2)" 2 "$2" "$study" check edited
}
edit_case "a pair's slope fit deleted" "proportionality: has no fit for 'dopri5 \(adaptive\)', though its 13 tolerances give one" \
  "del a['proportionality'][0]"
edit_case "a slope's expected value edited" "proportionality\[0\]\.expected: 3 differs from the integrator's expected_slope 1" \
  "a['proportionality'][0]['expected'] = 3"
edit_case "a slope's points replaced (error = tol^3)" "proportionality\[0\]\.points\[0\]: .* is not its run's \(tol, largest error, floor\)" \
  "[p.__setitem__(1, p[0] ** 3) for p in a['proportionality'][0]['points']]"
edit_case "a run's force evaluations set to 0" "adaptive\.runs\[0\]\.force_evals: 0 force evaluations for [0-9]+ accepted steps" \
  "a['runs'][0]['force_evals'] = 0"
rm -rf edited && cp -r res edited && rm edited/versus/adaptive.csv
expect "adaptive.csv deleted: refused (exit 2)" 2 "adaptive.csv: missing, but results.json has 39 adaptive runs" "$study" check edited
rm -rf edited && cp -r res edited && sed -i '2s/^\([^,]*\),\([^,]*\),\([^,]*\),[^,]*,/\1,\2,\3,99,/' edited/versus/adaptive.csv
expect "adaptive.csv edited (global = 99): refused, naming both copies (exit 2)" 2 \
  "adaptive.csv:2: global is 99, but results.json has .* \(studies 'versus', adaptive.runs\[0\]\)" "$study" report edited
# Nothing silent: a sweep of one tolerance gives its pair no slope, and study run and study check say so, with what
# would decide it; a gate that judged nothing fails.
sed 's/^tol = .*/tol = { max = 1e-6, min = 1e-6, per_decade = 1 }/' versus.toml > one.toml
expect "study run names a pair of one tolerance: no slope, and what would give one" 0 \
  "dopri5 \(adaptive\) +tol +undetermined no slope: the sweep has 1 tolerance, and a slope of error on tolerance needs 3 or more; to decide: tol = " \
  "$study" run one.toml --out one
expect "study check -v names it too, undetermined with its action" 0 \
  "UNDETERMINED versus \(kepler\) \| fehlberg78 \(adaptive\) \| tolerance proportionality .* no slope: the sweep has 1 tolerance.*\| to decide: tol = " \
  "$study" check one -v
grep -v '^integrators\|^dt = ' one.toml > pairs-only.toml
expect "pairs only, one tolerance: the gate judged nothing, and fails saying what would decide it (exit 1)" 1 \
  "UNDETERMINED .*dopri5 \(adaptive\) \| tolerance proportionality.*no check was judged \(3 undetermined\).*the lines above say what would decide them" \
  bash -o pipefail -c "'$study' run pairs-only.toml --out pairs -q && '$study' check pairs | tr '\n' ' '"
finish
