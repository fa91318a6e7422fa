#!/bin/bash
# The client program conventions (client/cli/cli_app.h), on the built
# binary: `--help` exits 0 with the usage on stdout and nothing on stderr,
# `--version` prints "<program> <version>", and an unknown flag exits 2 with
# a first stderr line "<program>: ..." that names the flag. (That --help
# lists every flag with its default is checked on the CLI::App in
# help_lists_flags_test.cc for factord-ipm and factord-load.)
# usage: check_client_cli.sh BINARY PROGRAM VERSION
set -u
bin="$1" program="$2" version="$3"
work="$(mktemp -d "${TMPDIR:-/tmp}/sdk-flags.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $program: $*" >&2; exit 1; }

status=0
"$bin" --help > "$work/out" 2> "$work/err" || status=$?
[ "$status" -eq 0 ] || fail "--help exited $status"
[ ! -s "$work/err" ] || fail "--help wrote to stderr: $(head -n 3 "$work/err")"
grep -q "^Usage: $program " "$work/out" ||
  fail "--help has no 'Usage: $program' line"
grep -q -- "--version" "$work/out" || fail "--help does not list --version"
echo "--help: exit 0, $(wc -l < "$work/out") lines on stdout"

status=0
"$bin" --version > "$work/out" 2> "$work/err" || status=$?
[ "$status" -eq 0 ] || fail "--version exited $status"
[ "$(cat "$work/out")" = "$program $version" ] ||
  fail "--version printed '$(cat "$work/out")', expected '$program $version'"
echo "--version: $(cat "$work/out")"

bad=--no_such_flag_for_the_test
status=0
"$bin" "$bad" > "$work/out" 2> "$work/err" || status=$?
[ "$status" -eq 2 ] || fail "$bad exited $status, expected 2"
[ ! -s "$work/out" ] || fail "$bad wrote to stdout: $(head -n 3 "$work/out")"
first="$(head -n 1 "$work/err")"
[[ "$first" == "$program: "*"$bad"* ]] ||
  fail "the first stderr line does not name $bad: '$first'"
echo "bad flag: exit 2, '$first'"
echo "PASS: $program"
