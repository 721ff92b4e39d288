#!/usr/bin/env bash
# The docs stand on their own: fails (exit 1, one `file:line: problem` per finding) when a
# Markdown file of the repository
#   - links (`[text](target)`, `![img](target)`, `[ref]: target`) to a path outside the
#     repository or to a file that does not exist in it;
#   - names a path that leaves the repository: `../shared`, `shared/...`, `/work/...`, the
#     papers' texts (`papers/X` where X is not a file of `scenarios/papers/`), or any `../`
#     that climbs above the repository root from the file's folder;
#   - names a Markdown file (`something.md`) that exists neither beside it nor from the root.
# URLs (http:, https:, mailto:) and in-page anchors are not checked.
#
#   tools/check-doc-links.sh            # ctest docs:links_stay_in_repo
#
# Files checked: the Markdown files git knows (tracked, or new and not ignored); without git,
# every *.md outside build*/ and .git/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$root"

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git -C "$root" ls-files --cached --others --exclude-standard -- '*.md' | sort -u)
else
  mapfile -t files < <(find . -name '*.md' -not -path './build*' -not -path './.git/*' | sed 's|^\./||' | sort)
fi

problems=0
findings=()
declare -A seen # "file:line:path" already reported, so one path is reported once per line
report() {      # file line path message
  local key="$1:$2:$3"
  [[ -z ${seen[$key]:-} ]] || return 0
  seen[$key]=1
  findings+=("$1:$2: $4")
  problems=$((problems + 1))
}

# inside PATH: true when the normalised PATH is the repository root or below it.
inside() {
  case "$1" in
    "$root" | "$root"/*) return 0 ;;
    *) return 1 ;;
  esac
}

# token TEXT: TEXT without the character before the path and trailing punctuation.
token() {
  local t=${1#[^A-Za-z0-9_./~]}
  while [[ $t == *[.:] ]]; do t=${t%?}; done
  printf '%s' "$t"
}

stop='][:space:]`()<>"'"'"',;|' # characters that end a path in prose
checked=0
for f in "${files[@]}"; do
  [[ -f $f ]] || continue # tracked but deleted in the work tree
  checked=$((checked + 1))
  dir=$(dirname "$f")

  # 1. Path references that leave the repository, wherever they stand (text, code, links).
  while IFS=: read -r line text; do
    t=$(token "$text")
    report "$f" "$line" "$t" "refers to a path outside the repository: $t"
  done < <(grep -noE "(\.\./)+shared[^$stop]*|(^|[^A-Za-z0-9_./-])shared/[^$stop]*|/work/[^$stop]*" "$f" || true)
  while IFS=: read -r line text; do
    t=$(token "$text")
    [[ -e "$root/scenarios/$t" ]] && continue # a scenario file, named from scenarios/
    report "$f" "$line" "$t" "refers to $t, which is not in the repository (the papers' texts are not; scenario files are under scenarios/papers/)"
  done < <(grep -noE "(^|[^A-Za-z0-9_./-])papers/[^$stop]+" "$f" || true)
  while IFS=: read -r line text; do
    t=$(token "$text")
    inside "$(realpath -m "$root/$dir/$t")" ||
      report "$f" "$line" "$t" "climbs out of the repository from $dir/: $t"
  done < <(grep -noE "(\.\./)+[^$stop]*" "$f" || true)

  # 2. Markdown links and reference definitions: inside the repository and existing.
  while IFS=: read -r line text; do
    case "$text" in
      \]\(*) target=${text#](} ; target=${target%)} ;;
      *) target=$(sed -E 's/^[[:space:]]*\[[^]]+\]:[[:space:]]*//' <<<"$text") ;;
    esac
    target=${target#<}
    target=${target%%>*}
    target=${target%% *} # drop a "title"
    case "$target" in
      '' | '#'* | mailto:* | *://*) continue ;;
    esac
    path=${target%%#*}
    path=${path%%\?*}
    [[ -n $path ]] || continue
    if [[ $path == /* ]]; then
      resolved=$(realpath -m "$root$path")
    else
      resolved=$(realpath -m "$root/$dir/$path")
    fi
    if ! inside "$resolved"; then
      report "$f" "$line" "$path" "link leaves the repository: $target"
    elif [[ ! -e $resolved ]]; then
      report "$f" "$line" "$path" "link to a missing file: $target"
    fi
  done < <(grep -noE '\]\([^)[:space:]]*( +"[^"]*")?\)|^[[:space:]]*\[[^]]+\]:[[:space:]]*[^[:space:]]+' "$f" || true)

  # 3. Named Markdown files (`docs/relay.md`, "see notes/x.md"): must exist beside the file or
  #    from the root.
  while IFS=: read -r line text; do
    name=${text%[^A-Za-z0-9]}
    case "$name" in //* | *://*) continue ;; esac
    [[ -e "$root/$dir/$name" || -e "$root/${name#/}" ]] && continue
    report "$f" "$line" "$name" "names a Markdown file that is not in the repository: $name"
  done < <(grep -noE '[A-Za-z0-9_./~-]*[A-Za-z0-9_-]\.md([^A-Za-z0-9]|$)' "$f" || true)
done

if ((problems > 0)); then
  printf '%s\n' "${findings[@]}" | sort -t: -k1,1 -k2,2n -s
  echo "check-doc-links: $problems problem(s) in $checked Markdown file(s); the docs must stand on their own" >&2
  exit 1
fi
echo "check-doc-links: $checked Markdown file(s), every link and path stays in the repository"
