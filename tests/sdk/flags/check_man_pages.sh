#!/bin/bash
# The man pages help2man made (man/CMakeLists.txt): each renders with man,
# has the NAME, SYNOPSIS, DESCRIPTION and OPTIONS sections, names the
# program's version, and lists every flag its program's --help lists.
# Skips (77) when the build made no pages (help2man missing).
# usage: check_man_pages.sh MAN_BUILD_DIR BUILD_DIR
set -u
man_dir="$1" build="$2"
shopt -s nullglob
pages=("$man_dir"/*.1)
if [ "${#pages[@]}" -eq 0 ]; then
  echo "SKIP: no man pages in $man_dir (help2man not found, or the" \
    "man_pages target not built)"
  exit 77
fi
if ! command -v man > /dev/null; then
  echo "SKIP: man (man-db) is not installed"
  exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }

for page in "${pages[@]}"; do
  program="$(basename "$page" .1)"
  bin="$build/client/$program"
  [ "$program" = factord ] && bin="$build/server/factord"
  [ -x "$bin" ] || fail "$page: no program $bin"
  # Wide, neither hyphenated nor justified, so that flags stay whole words.
  text="$(MANWIDTH=200 man --nh --nj -l "$page" 2> /dev/null)" ||
    fail "$page does not render"
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS; do
    grep -q "^$section" <<<"$text" || fail "$page has no $section section"
  done
  version="$("$bin" --version)"
  grep -qF "${version#"$program "}" <<<"$text" ||
    fail "$page does not name version '$version'"
  flags=0
  for flag in $("$bin" --help | grep -o -- '--[a-z][a-z_]*' | sort -u); do
    grep -qF -- "$flag" <<<"$text" || fail "$page does not mention $flag"
    flags=$((flags + 1))
  done
  echo "$program.1: renders, 4 sections, version ${version#"$program "}," \
    "$flags flags of --help"
done
echo "PASS: ${#pages[@]} man pages"
