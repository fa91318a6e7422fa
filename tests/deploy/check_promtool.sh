#!/usr/bin/env bash
# promtool on deploy/prometheus:
#   check  promtool check rules (the alert rules) and check config (the
#          example scrape configuration, which loads the rules)
#   test   promtool test rules (unit tests of every alert)
source "$(dirname "$0")/lib.sh"
need_tool promtool "Debian package prometheus"
cd "$DEPLOY/prometheus"
case "${1:-}" in
  check)
    promtool check rules factord-rules.yaml
    promtool check config scrape-config.yaml
    ;;
  test)
    promtool test rules factord-rules.test.yaml
    ;;
  *)
    fail "usage: $0 check|test"
    ;;
esac
