#!/usr/bin/env bash
# Every plot in every state (issue 54): a study with a FAIL, undetermined fits, diverged runs, merged curves and
# curves of the same numbers kept apart by their verdicts, and a scan with points no method reaches; rendered, then a
# report asked for an accuracy nobody reaches (the scan's cost plot: an empty panel).  Every command exits 0, every
# SVG is whole and follows the plot rules (test_svg's [.states] case parses each), and each state shows on its plot.
# Usage: plot_states.sh path/to/study path/to/test_answers
set -u
study=$1 svg_test=$2
source "$(dirname "$0")/../support.sh"
specs="$(dirname "$0")/states"

expect "a study with a FAIL, diverged runs and merged curves, and a scan, render every plot" 0 "wrote .*REPORT.md with [0-9]+ plot" \
  "$study" run "$specs/states-scan.toml" "$specs/states-harmonic.toml" --out "$tmp/R"
expect "a report at an accuracy no method reaches renders every plot (an empty cost panel)" 0 "wrote .*REPORT.md with [0-9]+ plot" \
  "$study" report "$tmp/R" --accuracy 1e-15 --out "$tmp/R2"
has() {  # has DESCRIPTION FILE REGEX
  grep -Eq -- "$3" "$2" 2>/dev/null && ok "$1" || bad "$1: no /$3/ in $2"
}
p="$tmp/R/plots"
has "the FAIL is drawn, named on its line" "$p/states-harmonic-local.svg" "rk4: 4\.99 FAIL \(expected 6\)"
has "an undetermined fit is drawn, marked" "$p/states-harmonic-global.svg" "undetermined \(expected 5\)"
has "a method with no fit (every error pre-asymptotic) is drawn" "$p/states-harmonic-global.svg" "euler: no fit"
has "coinciding curves of one verdict are one line" "$p/states-harmonic-local.svg" "leapfrog = leapfrog-copy: 3\.0"
has "the same numbers under other verdicts are two lines" "$p/states-harmonic-local.svg" "rk4-copy: 4\.99<"
has "the diverged runs are named on the study's page" "$tmp/R/states-harmonic/REPORT.md" "diverged"
has "the scan's cost plot marks a method with no cost at any point" "$p/states-scan-cost-e.svg" "euler: no cost at any point"
has "an empty cost plot says so" "$tmp/R2/plots/states-scan-cost-e.svg" "no data: no method has a value to draw"
n=$(ls "$p"/*.svg "$tmp/R2/plots"/*.svg 2>/dev/null | wc -l)
[ "$n" -ge 20 ] && ok "$n SVGs drawn" || bad "only $n SVGs drawn"
if PLOT_STATES="$p:$tmp/R2/plots" "$svg_test" "[.states]" > "$tmp/svg.out" 2>&1; then ok "every SVG parses and follows the plot rules"
else bad "the SVG rules: $(tail -c 1500 "$tmp/svg.out")"; fi
finish
