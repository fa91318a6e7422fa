#!/usr/bin/env bash
# Credentials reloaded by a real SIGHUP (ctest fleet.reload; docs/fleet.md):
# factord with bearer tokens and TLS, driven by factorctl.
#   - a token added to the tokens file works for new calls on a factor
#     made before the reload (same tenant, no re-upload, no refactorization);
#   - a broken tokens file is refused (a log line) and the old tokens stay;
#   - a rotated certificate is served to new connections (a client that
#     trusts only the new CA gets through, one that trusts only the old one
#     no longer does) and the factor is still there;
#   - a broken certificate is refused and the one in force stays;
#   - /metrics counts the reloads; SIGTERM still drains and exits 0.
# Usage: tests/fleet/check_reload.sh BUILD_DIR
source "$(dirname "$0")/fleet_lib.sh"
BUILD="$(cd "${1:?usage: check_reload.sh BUILD_DIR}" && pwd)"
need_binary "$BUILD/server/factord"
need_binary "$BUILD/client/factorctl"
command -v openssl >/dev/null || fail "openssl not found (Debian package openssl)"
ctl="$BUILD/client/factorctl"

# Two CAs, each with a server certificate for 127.0.0.1.
cd "$WORK"
for p in one two; do
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -days 2 -keyout $p-ca.key -out $p-ca.pem -subj /CN=$p-ca \
    -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout $p-server.key -out $p-server.csr -subj /CN=$p-server 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > $p.ext
  openssl x509 -req -in $p-server.csr -CA $p-ca.pem -CAkey $p-ca.key \
    -CAcreateserial -days 2 -out $p-server.pem -extfile $p.ext 2>/dev/null
done
cp one-server.pem cert.pem
cp one-server.key key.pem
tok_a="alice-first-3f9a1c7e5b2d4f60"
tok_b="alice-second-8e2c4a6b0d1f3e57"
echo "$tok_a alice" > tokens
chmod 600 tokens key.pem

start_daemon r --tls_cert="$WORK/cert.pem" --tls_key="$WORK/key.pem" \
  --auth_tokens_file="$WORK/tokens" --reload_interval=0s --shutdown_grace=5s
server="127.0.0.1:$r_PORT"
# ctl CA TOKEN ARGS...: factorctl over TLS trusting CA, with TOKEN.
ctl() {
  local ca="$1" token="$2"
  shift 2
  "$ctl" --server="$server" --timeout=10 --tls_ca="$WORK/$ca" --token="$token" "$@"
}
# hup PATTERN: SIGHUP, then waits (5 s at most) for a log line matching it.
hup() {
  local before start=$SECONDS
  before=$(wc -l < "$WORK/r.log")
  kill -HUP "$r_PID"
  until tail -n +"$((before + 1))" "$WORK/r.log" | grep -q -- "$1"; do
    [ $((SECONDS - start)) -lt 5 ] || fail "no log line '$1' after SIGHUP"
    sleep 0.05
  done
}
# until_ok SECONDS COMMAND...: retries COMMAND until it succeeds.
until_ok() {
  local limit="$1" start=$SECONDS
  shift
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - start)) -lt "$limit" ] || fail "not within $limit s: $*"
    sleep 0.1
  done
}

ctl one-ca.pem "$tok_a" upload "$ROOT/tests/data/494_bus.mtx" --id=kkt >/dev/null
ctl one-ca.pem "$tok_a" factorize --id=kkt --method=ldlt >/dev/null
if ctl one-ca.pem "$tok_b" solve --id=kkt >/dev/null 2>&1; then
  fail "the second token worked before it was added"
fi

echo "== a token added by SIGHUP, on the factor made before"
printf '%s alice\n%s alice\n' "$tok_a" "$tok_b" > tokens
hup "reload: --auth_tokens_file .* in force for new calls (2 tokens, 1 tenants)"
ctl one-ca.pem "$tok_b" --json solve --id=kkt | grep -q '"status":"converged"' ||
  fail "solve with the added token"
ctl one-ca.pem "$tok_b" --json get --id=kkt | grep -q '"factorized":true' ||
  fail "the factor made before the reload is gone"
echo "ok: the added token solves with the factor made before the reload"

echo "== a broken tokens file keeps the old tokens"
printf '%s alice with-a-third-field\n' "$tok_b" > tokens
hup "reload: --auth_tokens_file refused, the tokens in force stay: .*tokens:1: expected"
grep -q "$tok_b" "$WORK/r.log" && fail "a token appeared in the log"
ctl one-ca.pem "$tok_a" solve --id=kkt >/dev/null || fail "the old token stopped working"
ctl one-ca.pem "$tok_b" solve --id=kkt >/dev/null || fail "the added token stopped working"
echo "ok: refused with a log line; both tokens in force still work"

echo "== a rotated certificate, served to new connections"
cp two-server.pem cert.pem
cp two-server.key key.pem
hup "reload: TLS files version 2 in force for new connections"
until_ok 5 ctl two-ca.pem "$tok_a" info
if ctl one-ca.pem "$tok_a" info >/dev/null 2>&1; then
  fail "a new connection still got the old certificate"
fi
ctl two-ca.pem "$tok_b" --json solve --id=kkt | grep -q '"status":"converged"' ||
  fail "solve over the new certificate"
echo "ok: new connections get the new certificate; the factor is still there"

echo "== a broken certificate keeps the one in force"
printf -- '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n' > cert.pem
hup "reload: TLS files refused, the certificate in force stays"
cp one-server.pem cert.pem   # a certificate without its key: refused too
hup "is not the private key of the certificate"
sleep 1.5  # past gRPC's one-second refresh: nothing was handed over
ctl two-ca.pem "$tok_a" info >/dev/null || fail "the certificate in force was lost"
echo "ok: refused with a log line; the certificate in force is still served"

metrics="$(curl -fsS "http://127.0.0.1:$r_METRICS/metrics")"
for series in 'credentials="tokens",result="applied"} 1' \
              'credentials="tokens",result="refused"} 1' \
              'credentials="tls",result="applied"} 1' \
              'credentials="tls",result="refused"} 2'; do
  grep -qF "factord_credential_reloads_total{$series" <<<"$metrics" ||
    fail "/metrics lacks factord_credential_reloads_total{$series"
done
stop_pid "$r_PID" 15
[ "$STOP_STATUS" -eq 0 ] || fail "factord exited $STOP_STATUS on SIGTERM"
echo "reload: PASS"
