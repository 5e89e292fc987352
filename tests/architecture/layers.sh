#!/usr/bin/env bash
# The architecture test: every #include of the project's sources (integrators/, reference/, reports/, study/)
# against the layers of tests/architecture/layers.txt.  Fails naming the file and line of an include that points
# up a layer or sideways into a folder its own may not know, of a source in a folder the file does not list, of
# Boost.Odeint outside reference/, and of anything but the standard library in integrators/.
# Usage: layers.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: layers.sh SOURCE_DIR}
cd "$root"
layers=tests/architecture/layers.txt
declare -A allowed rank generated
n=0
while read -r folder deps; do
  [[ -z $folder || $folder == \#* ]] && continue
  if [[ $folder == generated ]]; then
    read -r header owner <<<"$deps"
    generated[$header]=$owner
    continue
  fi
  for d in $deps; do
    [[ -n ${rank[$d]+x} ]] || { echo "$layers: $folder may include $d, which is not listed above it (a layer may only point down)"; exit 1; }
  done
  rank[$folder]=$n allowed[$folder]=" $deps "
  n=$((n + 1))
done <"$layers"

failures=0
fail() { echo "$1"; failures=$((failures + 1)); }
# Every C or C++ source or header, whatever its extension (a .h or .ipp is read as a .hpp is).
mapfile -t files < <(find integrators reference reports study -type f -regextype posix-extended \
  -regex '.*\.(h|hh|hpp|hxx|h\+\+|ipp|tpp|txx|inc|inl|c|cc|cpp|cxx|c\+\+)' -not -path 'reports/example/*' | sort)
[[ ${#files[@]} -gt 50 ]] || { echo "layers.sh: only ${#files[@]} sources found under $root: is it the source tree?"; exit 1; }
for f in "${files[@]}"; do
  dir=${f%/*}
  [[ -n ${rank[$dir]+x} ]] || fail "$f: its folder $dir is not in $layers (add it where its includes put it)"
done
# Every include line of every file at once (one grep: the test takes a fraction of a second).
while IFS=: read -r f line text; do
  dir=${f%/*}
  [[ -n ${rank[$dir]+x} ]] || continue  # reported above
  if [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] ||
     [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<((integrators|reference|reports|study)/[^\>]+)\> ]]; then
    target=${BASH_REMATCH[1]}  # a project header, written "..." or <...> (the source root is on the include path)
    if [[ -n ${generated[$target]+x} ]]; then
      tdir=${generated[$target]}
    elif [[ -f $target ]]; then
      tdir=${target%/*}
    else
      fail "$f:$line: #include \"$target\": no such file in the tree (includes are written from the source root)"
      continue
    fi
    [[ $tdir == "$dir" ]] && continue
    if [[ -z ${rank[$tdir]+x} ]]; then
      fail "$f:$line: #include \"$target\": its folder $tdir is not in $layers"
    elif [[ ${allowed[$dir]} != *" $tdir "* ]]; then
      if ((rank[$tdir] > rank[$dir])); then
        fail "$f:$line: #include \"$target\" points up: $tdir is a layer above $dir ($layers)"
      else
        fail "$f:$line: #include \"$target\": $dir may not include $tdir ($layers lists what it may)"
      fi
    fi
  elif [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([^\>]+)\> ]]; then
    target=${BASH_REMATCH[1]}
    if [[ $target == boost/numeric/odeint* && $dir != reference ]]; then
      fail "$f:$line: #include <$target>: only reference/ includes Boost.Odeint"
    fi
    if [[ $dir == integrators && ! $target =~ ^[a-z_]+$ ]]; then
      fail "$f:$line: #include <$target>: integrators/ includes the C++ standard library only"
    fi
  elif [[ $text =~ ^[[:space:]]*#[[:space:]]*include ]]; then
    fail "$f:$line: $text: an include this test cannot read (a macro, #include_next); write the header's path"
  fi
done < <(grep -Hn '^[[:space:]]*#[[:space:]]*include' "${files[@]}" || true)
if ((failures)); then
  echo "layers.sh: $failures include(s) against the layers of $layers"
  exit 1
fi
echo "layers.sh: ${#files[@]} sources in $n layers, every include points down"
