#!/usr/bin/env bash
# Start a throwaway PostgreSQL server for the server's tests and print its URL.
#
#   url=$(scripts/start-test-postgres.sh)          # the URL is the only line on stdout
#   RICOCHET_TEST_POSTGRES="$url" .venv/bin/python -m pytest tests/test_server_storage.py
#   scripts/start-test-postgres.sh stop "$url"     # or: pg_ctl -D <dir> stop (printed on stderr)
#
# Installs nothing: uses Debian's postgresql binaries (/usr/lib/postgresql/*/bin) or pg_ctl on PATH.
# The cluster lives in a fresh temp dir (trust auth, 127.0.0.1 only, a free port); as root it runs as
# the user "postgres" (or "nobody"), since PostgreSQL refuses to run as root.
set -euo pipefail

say() { echo "start-test-postgres: $*" >&2; }

bindir=""
for d in /usr/lib/postgresql/*/bin; do
  [[ -x "$d/pg_ctl" ]] && bindir="$d"   # the newest version wins (glob order)
done
if [[ -z "$bindir" ]] && command -v pg_ctl >/dev/null; then
  bindir="$(dirname "$(command -v pg_ctl)")"
fi
if [[ -z "$bindir" ]]; then
  say "no PostgreSQL found (looked in /usr/lib/postgresql/*/bin and PATH); install Debian's postgresql package"
  exit 2
fi

if [[ "${1:-}" == "stop" ]]; then
  dir="${2:-}"
  if [[ "$dir" == postgresql://* ]]; then
    dir="$(cat "${TMPDIR:-/tmp}"/ricochet-pg.*/url-to-dir 2>/dev/null | awk -v u="$dir" '$1==u{print $2}' | tail -1)"
  fi
  [[ -n "$dir" && -d "$dir/data" ]] || { say "usage: $0 stop <data dir or URL printed at start>"; exit 2; }
  owner="$(stat -c %U "$dir/data")"
  if [[ "$(id -u)" == 0 && "$owner" != root ]]; then
    runuser -u "$owner" -- "$bindir/pg_ctl" -D "$dir/data" -m fast stop >&2
  else
    "$bindir/pg_ctl" -D "$dir/data" -m fast stop >&2
  fi
  rm -rf "$dir"
  exit 0
fi

run_as=()
user="$(id -un)"
if [[ "$(id -u)" == 0 ]]; then
  if id postgres >/dev/null 2>&1; then user=postgres; else user=nobody; fi
  run_as=(runuser -u "$user" --)
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/ricochet-pg.XXXXXX")"
chmod 755 "$dir"
[[ ${#run_as[@]} -gt 0 ]] && chown "$user" "$dir"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

"${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U ricochet --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
  say "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }
"${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || { say "the server did not start:"; cat "$dir/server.log" >&2; exit 1; }
"${run_as[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U ricochet ricochet_test

url="postgresql://ricochet@127.0.0.1:$port/ricochet_test"
echo "$url $dir" > "$dir/url-to-dir"
say "PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') running in $dir on port $port"
say "stop it with: $0 stop $dir"
echo "$url"
