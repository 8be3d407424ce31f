#!/usr/bin/env bash
# Checks that rdfscout runs from outside its checkout (issue 16 item 13): `npm pack`, `npm install -g` into a temporary
# prefix, then --version, a crawl of a local site (python3's http.server on 127.0.0.1), a query and stats, from a
# temporary folder; and `npx --package <checkout>`. Prints what it ran; exits non-zero on the first failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
server=''
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
echo "Node on PATH: $(node --version) (an older one makes rdfscout run itself with the Node 24 it installed)"

echo "npm pack"
(cd "$root" && npm pack --pack-destination "$tmp" --silent >/dev/null)
echo "npm install -g $(basename "$tmp"/rdfscout-*.tgz) into a temporary prefix"
npm install -g --prefix "$tmp/prefix" "$tmp"/rdfscout-*.tgz --no-audit --no-fund --silent
rdfscout="$tmp/prefix/bin/rdfscout"

mkdir "$tmp/site"
printf '<http://example.org/a> <http://example.org/p> "1" .\n' >"$tmp/site/a.ttl"
printf '<html><head><title>home</title></head><body><a href="a.ttl">data</a></body></html>' >"$tmp/site/index.html"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$tmp/site" >"$tmp/http.log" 2>&1 &
server=$!
port=''
for _ in $(seq 50); do
  port=$(grep -o 'port [0-9]*' "$tmp/http.log" | head -1 | cut -d' ' -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the local site did not start"; exit 1; }

cd "$tmp"
echo "rdfscout --version: $("$rdfscout" --version)"
"$rdfscout" crawl "http://127.0.0.1:$port/" --out out --allow-private --delay-ms 0 --quiet
rows=$("$rdfscout" query out --format csv 'SELECT ?o WHERE { ?s <http://example.org/p> ?o }')
[ "$rows" = $'o\r\n1\r' ] || [ "$(printf '%s' "$rows" | tr -d '\r')" = $'o\n1' ] || { echo "unexpected query result: $rows"; exit 1; }
"$rdfscout" stats out | grep -q 'RDF documents      1' || { echo "stats did not count the RDF document"; exit 1; }
echo "installed copy: crawl, query and stats work from $tmp"
echo "npx --package <checkout> rdfscout --version: $(npx --yes --package "$root" rdfscout --version)"
echo "install check passed"
