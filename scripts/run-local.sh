#!/usr/bin/env bash
# `make run`: migrate, seed the demo tenant, start a worker, serve on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
export FLASK_APP=app
FLASK=.venv/bin/flask
PORT="${PORT:-5000}"

$FLASK db upgrade
seed="$($FLASK seed-demo)"
field() { printf '%s\n' "$seed" | sed -n "s/^$1: *//p"; }
tenant="$(field tenant)"; login="$(field login)"; password="$(field password)"; key="$(field 'api key')"

$FLASK worker &
worker_pid=$!
# Give the worker a moment for a warm shutdown, then make sure it is gone.
stop_worker() {
  kill -TERM "$worker_pid" 2>/dev/null || return 0
  for _ in $(seq 20); do
    kill -0 "$worker_pid" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -KILL "$worker_pid" 2>/dev/null || true
}
stop_all() {
  stop_worker
  $FLASK stop-embedded-redis 2>/dev/null || true  # the private Redis, when REDIS_URL is one
}
trap stop_all EXIT INT TERM

cat <<MSG

  Document Management Service is starting at http://127.0.0.1:$PORT/

  Portal login:  http://127.0.0.1:$PORT/login
    workspace:   $tenant
    email:       $login
    password:    $password

  Try the API (paste this into another terminal):
    curl -s -H "Authorization: Bearer $key" -H "X-Tenant-Id: $tenant" \\
      http://127.0.0.1:$PORT/api/v1/documents

MSG
$FLASK run --host 127.0.0.1 --port "$PORT"
