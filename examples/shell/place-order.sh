#!/usr/bin/env bash
# Places one order, polls it until it is final, and receives and verifies its callback.
# Needs bash, curl, openssl, and socat for the callback listener (a shell cannot listen alone).
#
#   TOPUP_BASE_URL=http://127.0.0.1:8080/api/v1 TOPUP_API_KEY=tk_... TOPUP_API_SECRET=ts_... \
#   TOPUP_CALLBACK_PORT=8787 examples/shell/place-order.sh
#
# Your callback URL must point at this listener: http://<this host>:8787/callback
# (dashboard: Settings; or `npx topup callback-url EMAIL URL`).
# Note: openssl takes the HMAC key on its command line, where other local users can see it
# in the process list; on a shared machine use one of the other examples.
set -euo pipefail

now_ms() { local t; t=$(date +%s%3N); [[ $t =~ ^[0-9]+$ ]] && echo "$t" || echo $(( $(date +%s) * 1000 )); }
hmac() { local mac _; read -r mac _ < <(openssl dgst -sha256 -r -hmac "$TOPUP_API_SECRET"); echo "$mac"; }   # stdin -> lowercase hex
field() { sed -n "s/.*\"$1\":\(\"\([^\"]*\)\"\|\([^,}]*\)\).*/\2\3/p" | head -n1; }  # naive JSON read, enough here

# The spec's check: fresh X-Timestamp, X-Signature = HMAC(body + timestamp). The shell cannot
# compare strings in constant time, so it compares HMACs of the two values: equal exactly
# when they are, and the time taken says nothing about the expected signature.
verify_callback() { # body_file timestamp signature
  local ts=$2 given expected age
  given=${3,,}
  [[ $ts =~ ^[0-9]{1,16}$ ]] || return 1
  age=$(( $(now_ms) - ts )); age=${age#-}
  [ "$age" -le 300000 ] || return 1
  expected=$({ cat "$1"; printf '%s' "$ts"; } | hmac)
  [ "$(printf '%s' "$expected" | hmac)" = "$(printf '%s' "$given" | hmac)" ]
}

# --- callback mode: socat runs this script once per connection, the request on stdin.
if [ "${1:-}" = "--receive-callback" ]; then
  dir=$2
  read -r request_line || exit 0   # the readiness probe below connects and sends nothing
  length=0; ts=""; sig=""; round=""
  while IFS= read -r line; do
    line=${line%$'\r'}
    [ -z "$line" ] && break
    value=${line#*:}; value=${value// /}   # pure bash: every fork counts while the service waits
    case "${line,,}" in
      content-length:*) length=$value ;;
      x-timestamp:*) ts=$value ;;
      x-signature:*) sig=$value ;;
      x-callback-id:*) round=$value ;;
    esac
  done
  tmp=$(mktemp "$dir/in.XXXXXX")
  head -c "$length" > "$tmp"
  if [[ $request_line == "POST /callback "* ]] && verify_callback "$tmp" "$ts" "$sig"; then
    # Delivery is at-least-once: one file per round (X-Callback-Id), so a repeat changes nothing.
    mv "$tmp" "$dir/round-${round//[^A-Za-z0-9_-]/}.json"
    printf 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'
  else
    rm -f "$tmp"
    echo "callback refused: bad signature or stale timestamp" >&2
    printf 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'
  fi
  exit 0
fi

: "${TOPUP_BASE_URL:?set TOPUP_BASE_URL}" "${TOPUP_API_KEY:?set TOPUP_API_KEY}" "${TOPUP_API_SECRET:?set TOPUP_API_SECRET}"
PORT=${TOPUP_CALLBACK_PORT:-8787}
WAIT_SECONDS=${TOPUP_WAIT_SECONDS:-60}
REF_ID=${TOPUP_REF_ID:-example-sh-$(now_ms)}
PRODUCT=${TOPUP_PRODUCT_CODE:-FF-100}
TARGET=${TOPUP_TARGET:-123456789}

# A signed request: GET signs the timestamp; POST signs the exact body + timestamp.
call() {
  local method=$1 path=$2 body=${3:-} ts sig
  ts=$(now_ms)
  sig=$(printf '%s%s' "$body" "$ts" | hmac)
  if [ "$method" = POST ]; then
    curl -sS -X POST "$TOPUP_BASE_URL$path" -H "X-Api-Key: $TOPUP_API_KEY" -H "X-Timestamp: $ts" -H "X-Signature: $sig" \
      -H 'Content-Type: application/json' --data-binary "$body"
  else
    curl -sS "$TOPUP_BASE_URL$path" -H "X-Api-Key: $TOPUP_API_KEY" -H "X-Timestamp: $ts" -H "X-Signature: $sig"
  fi
}
fail() { echo "$1" >&2; exit 1; }
ok_or_fail() { case "$1" in *'"success":true'*) ;; *) fail "API error: $1" ;; esac; }

inbox=$(mktemp -d)
socat "TCP-LISTEN:$PORT,reuseaddr,fork" SYSTEM:"'$0' --receive-callback '$inbox'" &
listener=$!
trap 'kill $listener 2>/dev/null; rm -rf "$inbox"' EXIT
# Ready before the order: its first callback attempt comes as soon as the order is final.
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
echo "listening for callbacks on port $PORT (path /callback)"

balance=$(call GET /balance); ok_or_fail "$balance"
echo "balance: $(field balance <<<"$balance") $(field currency <<<"$balance")"

# On a network error, retry with the SAME ref_id; a 409 DUPLICATE_REF_ID after such a retry
# means the first attempt went through: read it with GET /order-status.
order=$(call POST /order "{\"ref_id\":\"$REF_ID\",\"product_code\":\"$PRODUCT\",\"target\":\"$TARGET\"${TOPUP_ZONE:+,\"zone\":\"$TOPUP_ZONE\"}}")
ok_or_fail "$order"
echo "order placed: ref_id=$REF_ID order_code=$(field order_code <<<"$order") price=$(field price <<<"$order") status=$(field status <<<"$order")"

deadline=$(( $(date +%s) + WAIT_SECONDS ))
while :; do
  status=$(call GET "/order-status?ref_id=$REF_ID"); ok_or_fail "$status"
  state=$(field status <<<"$status")
  [ "$state" != processing ] && break
  [ "$(date +%s)" -gt "$deadline" ] && fail "order $REF_ID still processing after $WAIT_SECONDS s"
  sleep 1
done
echo "final status: $state serial=$(field serial_number <<<"$status") failure_code=$(field failure_code <<<"$status")"

# The listener keeps only verified callbacks, one file per delivery round.
verified=""
while [ -z "$verified" ]; do
  for f in "$inbox"/round-*.json; do
    [ -e "$f" ] || continue
    if [ "$(field ref_id < "$f")" = "$REF_ID" ]; then
      verified=$(field status < "$f")
      echo "callback verified: ref_id=$REF_ID status=$verified (round $(basename "$f" .json | sed 's/^round-//'))"
    fi
  done
  [ -n "$verified" ] && break
  [ "$(date +%s)" -gt "$deadline" ] && fail "no callback for $REF_ID within $WAIT_SECONDS s"
  sleep 0.2
done
echo "done: order $REF_ID $verified, callback verified"
