#!/usr/bin/env bash
# `make run`: migrate, seed the demo tenant, then serve through gunicorn (gunicorn.conf.py,
# workers from the CPU count and memory) with the job worker beside it, all on
# 127.0.0.1. Ctrl-C (or TERM) stops all of them and what they started; so does either one dying.
set -euo pipefail
cd "$(dirname "$0")/.."
export FLASK_APP=app
BIN=.venv/bin
FLASK=$BIN/flask
PORT="${PORT:-5000}"
export DMS_BIND="127.0.0.1:$PORT"
# Several gunicorn workers: /internal/metrics sums them from files in this directory.
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-instance/prometheus}"
rm -rf "$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$PROMETHEUS_MULTIPROC_DIR"

$FLASK db upgrade
seed="$($FLASK seed-demo)"
field() { printf '%s\n' "$seed" | sed -n "s/^$1: *//p"; }
tenant="$(field tenant)"; login="$(field login)"; password="$(field password)"; key="$(field 'api key')"

# Job control: each child starts its own process group (gunicorn's master and workers; the
# job worker and its work horses), so stopping a group reaches a process its parent left behind.
set -m
pids=()
# TERM each group, give them 10 s for a warm shutdown (a job in progress, open requests),
# then KILL what is left; runs once, whichever way we leave.
stop_all() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for _ in $(seq 20); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.5
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  $FLASK stop-embedded-redis 2>/dev/null || true  # the private Redis, when REDIS_URL is one
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

$FLASK worker &
pids+=($!)
$BIN/gunicorn wsgi:app &
pids+=($!)

cat <<MSG

  Document Management Service is starting at http://127.0.0.1:$PORT/
  (gunicorn and the job worker with its scheduler; Ctrl-C stops them all)

  Portal login:  http://127.0.0.1:$PORT/login
    workspace:   $tenant
    email:       $login
    password:    $password

  Try the API (paste this into another terminal):
    curl -s -H "Authorization: Bearer $key" -H "X-Tenant-Id: $tenant" \\
      http://127.0.0.1:$PORT/api/v1/documents

MSG
# Until one of them ends (or a signal arrives); then the EXIT trap stops the other.
wait -n "${pids[@]}"
