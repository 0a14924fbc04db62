#!/usr/bin/env bash
# Best effort: install Debian's PostgreSQL server and the asyncpg driver so the PostgreSQL
# storage, cluster and migrate-sqlite tests run (they skip, saying why, when either is missing).
# The tests start their own throwaway server (initdb + pg_ctl on 127.0.0.1, a free port, a temp
# dir, as the 'postgres' user when run as root): nothing is started here, no Docker.
# Usage (from the repository root):  bash .ci/postgres-setup.sh   (never fails the build)
set -uo pipefail
cd "$(dirname "$0")/.."
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends postgresql >/dev/null) \
            || echo "note: could not install postgresql; PostgreSQL tests will be skipped"
        # Debian's package starts a cluster of its own on port 5432: the tests do not use it.
    else
        echo "note: not root, cannot apt-get install postgresql; PostgreSQL tests will be skipped"
    fi
fi
# asyncpg comes with the project's test extra (.ci/check installs it).
exit 0
