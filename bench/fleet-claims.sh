#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench/fleet-claims.sh [BUILD_DIR] [JOBS [AGENTS [REPEATS]]]: job
# claims a second against a throwaway PostgreSQL cluster of its own
# (tests/integration/lib.sh's pg_start: trust authentication, a socket
# in a temporary directory, fsync off; PG_FSYNC=on: on), removed at the
# end. Needs
# PostgreSQL's server programs (Debian package postgresql); as root the
# server runs as user postgres. Prints bench/fleet-claims.c's lines.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
O=${1:-build}
case $O in /*) ;; *) O=$top/$O ;; esac
shift || true
export SCHEDLAB=$O/schedlab TOP=$top
# shellcheck source=../tests/integration/lib.sh
source "$top/tests/integration/lib.sh"
source "$top/bench/lib.sh"
pg_start
quiet
echo "# $(nproc) CPUs, $("$PG_BIN/postgres" --version), fsync ${PG_FSYNC:-off}"
"$O/bench/fleet-claims" "$PGURL" "$@"
