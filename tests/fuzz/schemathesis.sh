#!/usr/bin/env bash
# Fuzz the served OpenAPI document with schemathesis (`make fuzz`; not part of `make test`).
#
# Starts a dev server (--dev: movable clock, the dev director token) on a free port with a fresh
# data dir, installs schemathesis into the venv if missing, and runs every check against it
# with the director's token. Bounded: FUZZ_MAX_EXAMPLES per operation (20), FUZZ_MAX_TIME
# seconds in all (300). Extra arguments go to `schemathesis run`.
set -euo pipefail

cd "$(dirname "$0")/../.."
BIN=.venv/bin
PORT="${FUZZ_PORT:-8765}"
DATA="$(mktemp -d)"
TOKEN="$("$BIN/python" -c 'from service.settings import DEV_DIRECTOR_TOKEN; print(DEV_DIRECTOR_TOKEN)')"

"$BIN/python" -c 'import schemathesis' 2>/dev/null || "$BIN/pip" install --quiet 'schemathesis>=4,<5'

"$BIN/bgtd" serve --dev --port "$PORT" --data-dir "$DATA" >"$DATA/server.log" 2>&1 &
SERVER=$!
stop() {
    # live streams (SSE) the fuzzer left open keep a graceful shutdown waiting: 5 s, then kill
    kill "$SERVER" 2>/dev/null || return 0
    for _ in $(seq 50); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER" 2>/dev/null || true
    rm -rf "$DATA"
}
trap stop EXIT

for _ in $(seq 100); do
    curl --silent --fail "http://127.0.0.1:$PORT/health" >/dev/null && break
    sleep 0.1
done

status=0
# Every check; tests/fuzz/schemathesis.toml says which answers positive_data_acceptance takes.
"$BIN/schemathesis" --config-file tests/fuzz/schemathesis.toml run \
    "http://127.0.0.1:$PORT/schema/openapi.json" \
    --checks all \
    --header "Authorization: Bearer $TOKEN" \
    --max-examples "${FUZZ_MAX_EXAMPLES:-20}" \
    --max-time "${FUZZ_MAX_TIME:-300}" \
    "$@" || status=$?
if grep -q "Traceback" "$DATA/server.log"; then
    echo "server tracebacks:" && grep -B2 -A20 "Traceback" "$DATA/server.log" | head -100
fi
exit "$status"
