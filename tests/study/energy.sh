#!/usr/bin/env bash
# Energy under step-size control, as a user asks for it: each pair's energy error in time at its tolerances, and a
# long run of each pair at a tolerance (energy_tol) judged as the fixed-step long run is, bounded or a drift.
# Usage: energy.sh path/to/study.  Prints "N passed, M failed".
set -u
study=$1
source "$(dirname "$0")/../support.sh"  # tmp, ok, bad, expect, finish
export HOME="$tmp/home" STUDY_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME"
cd "$tmp" || exit 1

# The harmonic oscillator (its exact solution: no reference to solve): velocity Verlet beside Dormand-Prince, ours
# and Odeint's, over 100 periods in the long run.
cat > energy.toml <<'SPEC'
name = "energy"
problem = "harmonic"
t_end = 10.0
integrators = ["velocity-verlet"]
dt = [0.1, 0.05, 0.025]
adaptive = ["dopri5", "odeint-dopri5"]
tol = { max = 1e-4, min = 1e-10, per_decade = 1 }
energy_t_end = 628.0
energy_dt = 0.05
energy_tol = 1e-6
samples = 16
repeats = 1
SPEC

expect "study run runs each pair's long energy run at energy_tol beside the fixed-step one" 0 "energy" "$study" run energy.toml --out res
expect "study report writes the page and draws its plots" 0 "REPORT.md" "$study" report res
page=res/energy/REPORT.md
grep -qE '^\| dopri5 \(adaptive\) \| tol 1e-06, mean step [0-9.e-]+ \| ok \| .* \| drift \|$' "$page" &&
  grep -qE '^\| odeint-dopri5 \| tol 1e-06, mean step [0-9.e-]+ \| ok \| .* \| drift \|$' "$page" &&
  grep -qE '^\| velocity-verlet \| 0.05 \| ok \| .* \| bounded \|$' "$page" &&
  ok "the long-run table gives each pair's tolerance and mean step, and judges it a drift, velocity Verlet bounded" ||
  bad "the long-run table: $(grep -A6 '## Long energy run' "$page")"
grep -qF 'largest energy error' "$page" && grep -qE '^\| dopri5 \(adaptive\) \| 1e-06 \| ok \|( [0-9.e+-]+ \|){3}' "$page" &&
  ok "every adaptive run has its largest energy error in the runs' table" || bad "the adaptive runs' table: $(grep -A3 'largest energy error' "$page")"
grep -qF 'plots/energy-adaptive-energy.svg' "$page" && [ -s res/plots/energy-adaptive-energy.svg ] && ok "the page shows each pair's energy error in time" ||
  bad "no adaptive energy plot on the page: $(grep -n 'svg' "$page")"
gp=res/plots/energy-adaptive-energy.gp
# Seven tolerances: six drawn, the loosest and the tightest among them, in a panel a pair.
grep -qF "title 'tol 0.0001'" "$gp" && grep -qF "title 'tol 1e-10'" "$gp" && [ "$(grep -o "title 'tol [^']*'" "$gp" | sort -u | wc -l)" -eq 6 ] &&
  grep -qF 'odeint-dopri5' "$gp" && ok "the plot draws six of seven tolerances, loosest and tightest, for each pair" ||
  bad "the adaptive energy plot: $(grep -o "title '[^']*'" "$gp" | tr '\n' ' ')"
grep -qF 'adaptive pairs at tol = 1e-06' res/REPORT.md && grep -qE 'energy error bounded for velocity-verlet; growing for dopri5 \(adaptive\) \(t\^[01]\.[0-9]+\), odeint-dopri5' res/REPORT.md &&
  ok "the summary sorts the pairs' long runs by the same rule" || bad "the summary: $(grep 'Long conservative' res/REPORT.md)"
grep -qF '"tol": 1e-06' res/results.json && [ -s res/energy/adaptive_samples.csv ] && ok "results.json holds the long run's tolerance; the samples table is written" ||
  bad "results.json or adaptive_samples.csv"
expect "study check does not gate a pair's energy (a Runge-Kutta pair is not required to keep it)" 0 "" "$study" check res

# An edited samples table is refused, naming both copies.
cp -r res edited
sed -i '$ s/,[^,]*$/,0.5/' edited/energy/adaptive_samples.csv
expect "an edited energy sample at t_end is refused by the report, naming both copies" 2 "adaptive_samples.csv: 'odeint-dopri5' at tol .*energy error 0.5.*results.json's run has" \
  "$study" report edited --no-plots

# An inner sample edited: its largest no longer results.json's; a long run's last sample edited.
rm -rf edited && cp -r res edited
sed -i '3 s/,[^,]*$/,0.25/' edited/energy/adaptive_samples.csv
expect "an edited energy sample inside a run is refused, naming both copies" 2 "adaptive_samples.csv: 'dopri5 \(adaptive\)' at tol 0.0001: its samples' largest error is .* largest energy error 0.25, but results.json's run has" \
  "$study" report edited --no-plots
grep -qE '; 1 integrators, 3 runs, 2 adaptive pairs at 7 tolerances, 14 runs, 3 long energy runs' "$page" &&
  grep -qE '^\| dopri5 \(adaptive\) \| adaptive \(embedded pair\) \| .*pass' "$page" &&
  ok "the page counts the pairs and their long runs, and gives each pair its verdict row" || bad "the page's header or verdicts: $(grep -m1 'integrators,' "$page"; grep 'embedded pair' "$page")"
# A long run out of steps: a result with its limit, named in the summary as not judged.
sed 's/per_decade = 1 }/per_decade = 1, max_steps = 1000 }/' energy.toml > short.toml
expect "a pair's long run out of steps is said, with the limit and what would let it finish" 0 \
  "dopri5 \(adaptive\) +energy stopped +long run at tol 1e-06, [0-9]+ accepted steps: 1000 tries \(tol.max_steps: steps accepted or rejected\) before energy_t_end = 628" \
  "$study" run short.toml --out short
grep -qE 'stopped before the end, not judged: dopri5 \(adaptive\) \(step-limit at t = [0-9.]+\), odeint-dopri5' short/REPORT.md &&
  ok "the summary names the long runs that stopped, not judged" || bad "the summary: $(grep 'Long conservative' short/REPORT.md)"

# Bad input, before any work: exit 2, the file, the line and the key.
printf 'name = "x"\nproblem = "harmonic"\nt_end = 1.0\nadaptive = ["dopri5"]\ntol = { max = 1e-4, min = 1e-6, per_decade = 1 }\nenergy_tol = 1e-8\n' > lone.toml
expect "energy_tol without energy_t_end is refused" 2 "lone.toml:6: energy_tol: is a setting of the long energy run: give energy_t_end too" "$study" run lone.toml --out bad1
printf 'name = "x"\nproblem = "harmonic"\nt_end = 1.0\nadaptive = ["dopri5"]\ntol = { max = 1e-4, min = 1e-6, per_decade = 1 }\nenergy_t_end = 100.0\n' > pairs.toml
expect "a long run of pairs only without energy_tol is refused, with an example" 2 "pairs.toml:6: energy_t_end: the spec lists adaptive pairs only: give energy_tol.*energy_tol = 1e-04" "$study" run pairs.toml --out bad2
printf 'name = "x"\nproblem = "damped-oscillator"\nt_end = 1.0\nadaptive = ["dopri5"]\ntol = { max = 1e-4, min = 1e-6, per_decade = 1 }\nenergy_t_end = 100.0\nenergy_tol = 1e-6\n' > damped.toml
expect "a long energy run of a dissipative problem is refused" 2 "damped.toml:6: energy_t_end: the long energy run measures how well energy is conserved" "$study" run damped.toml --out bad3
[ ! -e bad1 ] && [ ! -e bad2 ] && [ ! -e bad3 ] && ok "nothing written for a refused spec" || bad "a refused spec wrote its folder"
finish
