#!/usr/bin/env bash
# The README and the manual run as written.  Usage: readme.sh README.md BUILD_DIR SOURCE_DIR
# Every ```sh block of the README, then of each page of the manual in the order the README's "Read on" list links
# them (docs/*.md; a page it does not list is reported), that calls the program (build/release/study) is extracted
# and run, in the order it appears, in one temporary folder where build/release is the build under test and study/ the source tree's data
# (the README's commands name study/profiles/...).  A block runs with bash -e -o pipefail: it passes when its exit
# status is the expected one, 0 unless the line just before its fence says otherwise:
#   <!-- readme-test: exit N -->          the block is meant to fail with status N (its last command does)
#   <!-- readme-test: skip: REASON -->    not run here, and why (another test runs those commands)
# A ```sh block without the program and without a marker is reported, so that none is left out by accident.
set -u
readme=$1 build=$2 src=$3
source "$(dirname "$0")/../support.sh"
mkdir -p "$tmp/work/build"
ln -s "$build" "$tmp/work/build/release"
ln -s "$src/study" "$tmp/work/study"

# The pages, in order: the README, then the manual as the README's "Read on" list links it.
pages=("$readme")
docs=$(dirname "$readme")/docs
while read -r page; do pages+=("$docs/$page"); done < <(awk '/^## /{on = ($0 == "## Read on")} on' "$readme" | grep -o '](docs/[a-z0-9-]*\.md)' | sed 's/^](docs\///; s/)$//' | awk '!seen[$0]++')
[ "${#pages[@]}" -gt 1 ] || bad "$readme: no \"## Read on\" list linking the manual's pages (docs/*.md)"
for page in "$docs"/*.md; do
  printf '%s\n' "${pages[@]}" | grep -qx "$page" || bad "$page: a page of the manual the README's Read on list does not link (so its blocks would not run)"
done

# Split the pages into blocks: block N's text in $tmp/block.N, its page, first line number and marker in the index.
for page in "${pages[@]}"; do
  [ -f "$page" ] || { bad "$page: linked from the README, but there is no such page"; continue; }
  awk -v dir="$tmp" -v page="${page#"$(dirname "$readme")"/}" -v n="$(cat "$tmp/count" 2>/dev/null || echo 0)" '
    /^```/ {
      if (inside) { inside = 0; close(file); next }
      if ($0 == "```sh") { inside = 1; n++; file = dir "/block." n; printf "" > file; print n, page ":" NR + 1, marker >> (dir "/index"); }
      marker = ""; next
    }
    inside { print > file; next }
    /^<!-- readme-test: .* -->$/ { marker = $0; sub(/^<!-- readme-test: /, "", marker); sub(/ -->$/, "", marker); next }
    NF { marker = "" }
    END { print n > (dir "/count") }
  ' "$page"
done
[ -s "$tmp/index" ] || { bad "no sh block in $readme"; finish; }

ran=0
while read -r n where marker; do
  block="$tmp/block.$n"
  case "$marker" in
    skip:*) echo "skip: $where (${marker#skip: })"; continue ;;
  esac
  if ! grep -q "build/release/study" "$block" && [ -z "$marker" ]; then
    bad "$where: a sh block that does not call build/release/study has no readme-test marker (run it or say why not)"
    continue
  fi
  expected=0
  case "$marker" in
    "exit "*) expected=${marker#exit } ;;
    "") ;;
    *) bad "$where: unknown readme-test marker '$marker'"; continue ;;
  esac
  start=$(date +%s%N)
  (cd "$tmp/work" && timeout 900 bash -e -o pipefail "$block") > "$tmp/out.$n" 2>&1
  rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  ran=$((ran + 1))
  if [ "$rc" -eq "$expected" ]; then
    ok "$where: $(grep -c . "$block") line(s), exit $rc as expected ($((ms / 1000)).$((ms % 1000 / 100)) s)"
  else
    bad "$where: exit $rc, expected $expected; the block:
$(sed 's/^/    /' "$block")
  its output (last 30 lines):
$(tail -30 "$tmp/out.$n" | sed 's/^/    /')"
  fi
done < "$tmp/index"
[ "$ran" -ge 8 ] && ok "$ran blocks ran" || bad "only $ran blocks ran"
finish
