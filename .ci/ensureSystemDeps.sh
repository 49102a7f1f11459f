#!/usr/bin/env bash
# Installs the Debian packages the tests need when they are missing:
# chromium (Playwright drives it; it cannot download its own browser here),
# redis-server (the differential suite compares the simulator with the real thing, and the
# reality check, src/reality, runs whole lesson scenarios on it) and
# faketime (libfaketime steps that redis-server's clock for the clock-jump differential test),
# etcd-server and postgresql-15 (the reality check runs the lease-service lessons on a real etcd
# and the database lock table's on a real PostgreSQL: src/reality/etcd.ts, postgres.ts).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/*-linux-gnu/faketime/libfaketime.so.1 >/dev/null 2>&1 || need+=(faketime)
command -v etcd >/dev/null 2>&1 || need+=(etcd-server)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql-15)
[ ${#need[@]} -eq 0 ] && exit 0
echo "Installing ${need[*]} with apt-get..."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
