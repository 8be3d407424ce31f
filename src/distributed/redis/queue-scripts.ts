// **Queue scripts**: the Lua of the shared frontier — per-PLD queues, claims under PLD leases, finishing a fetch with its release (issue 15).
import { LEASE_PRELUDE } from './lease-scripts.ts';
import { OVERFLOW_LUA } from './queue-overflow.ts';

/**
 * Keys under the crawl's prefix P (ARGV[1] of every script; KEYS[1..8] are the lease keys, `LEASE_KEY_NAMES`). An
 * entry is named by its URL's 64-bit fingerprint FP (16 hex digits, `urlFingerprint`); its URL is stored once, in
 * its entry (issue 15: bytes per queued URL).
 * - `P q:PLD`  ZSET of due queued entries: score = priority, member = 15-digit seq + FP (ties in priority go by seq)
 * - `P d:PLD`  ZSET of entries waiting for a retry back-off: score = notBefore (the workers' clock), same members
 * - `P e`      HASH FP → entry `state TAB seq TAB priority TAB attempts TAB notBefore TAB lost TAB body`, state q
 *              (queued), d (back-off) or f (in flight); lost = 1 once its lease was lost (refetched figure); body =
 *              `URL TAB json`, opaque to the scripts (shared-entry.ts writes and reads it)
 * - `P if`     HASH lease token → `PLD TAB FP`: the entry in flight under that lease (one entry per lease)
 * - `P stat`   HASH of shared counters: seq, ver, queued, inflight, done, spent, refetched
 * - `P chg`    ZSET PLD → `ver` of the last script that changed its view: a worker re-reads only the PLDs changed
 *              since the version it last read (`QUEUE_CHANGES_LUA`), never every PLD
 * - `P pq` / `P pf` / `P ps`  HASH PLD → queued (incl. back-off) / in flight / spent (budget) entries
 * - `P w:WORKER` HASH of one worker's counts (fetched, rdf, refetched); `P wall` SET of every worker ever seen
 * - `P log`    LIST of what each applied fetch taught (JSON, add-only): the workers' shared learning
 * - `P o:PLD`, `P r:PLD:ID`  the PLD's overflow past `P stat` field `cap` (queue-overflow.ts)
 * Seen-set buckets are SETs named by the caller (SeenSet's keys), passed with each URL.
 */
const QUEUE_PRELUDE = `${LEASE_PRELUDE}
local P = ARGV[1]
local E, STAT, PQ, PF, PS, IFL = P .. 'e', P .. 'stat', P .. 'pq', P .. 'pf', P .. 'ps', P .. 'if'
local function qk(pld) return P .. 'q:' .. pld end
local function dk(pld) return P .. 'd:' .. pld end
local function member(seq, url) return string.format('%015d', seq) .. url end
local function parse(h)
  local st, seq, pr, at, nb, lost, json = string.match(h, '^(%a)\\t(%d+)\\t([^\\t]+)\\t(%d+)\\t([^\\t]+)\\t(%d)\\t(.*)$')
  return { st = st, seq = tonumber(seq), pr = pr, at = at, nb = nb, lost = lost, json = json }
end
local function fmt(e)
  return e.st .. '\\t' .. string.format('%d', e.seq) .. '\\t' .. e.pr .. '\\t' .. e.at .. '\\t' .. e.nb .. '\\t' .. e.lost .. '\\t' .. e.json
end
local CHG = P .. 'chg'
local touched, ver = {}, false
-- Records that pld's view changed (once per script): workers that read the change feed re-read it.
local function touch(pld)
  if touched[pld] then return end
  touched[pld] = true
  if not ver then ver = redis.call('HINCRBY', STAT, 'ver', 1) end
  redis.call('ZADD', CHG, ver, pld)
end
local function count(h, field, n)
  local v = redis.call('HINCRBY', h, field, n)
  if h == PQ or h == PF then touch(field) end
  if v <= 0 and h ~= STAT then redis.call('HDEL', h, field) end
  return v
end
${OVERFLOW_LUA}
-- Queues an entry (due now, or waiting for its back-off) and offers its PLD for leases.
local function enqueue(url, e, pld, cnow, limit)
  if tonumber(e.nb) > cnow then
    e.st = 'd'
    redis.call('ZADD', dk(pld), e.nb, member(e.seq, url))
    redis.call('HSET', E, url, fmt(e))
  else
    e.st = 'q'
    redis.call('ZADD', qk(pld), e.pr, member(e.seq, url))
    redis.call('HSET', E, url, fmt(e))
    spill(pld)
  end
  count(STAT, 'queued', 1)
  count(PQ, pld, 1)
  offer_pld(pld, limit)
end
local function unqueue(url, e, pld)
  if e.st == 'd' then redis.call('ZREM', dk(pld), member(e.seq, url)) else redis.call('ZREM', qk(pld), member(e.seq, url)) end
  count(STAT, 'queued', -1)
  count(PQ, pld, -1)
end
-- A new URL is queued once (the seen set decides, atomically); a queued one found again more urgent is re-prioritised.
local function add_entry(url, pld, bucket, mem, pr, json, cnow, limit) -- url: the entry's FP
  if redis.call('SADD', bucket, mem) == 1 then
    local seq = redis.call('HINCRBY', STAT, 'seq', 1)
    enqueue(url, { seq = seq, pr = pr, at = '0', nb = '0', lost = '0', json = json }, pld, cnow, limit)
    return 1
  end
  local h = redis.call('HGET', E, url)
  if h then
    local e = parse(h)
    if e.st ~= 'f' and tonumber(pr) < tonumber(e.pr) then
      unqueue(url, e, pld)
      e.pr = pr
      e.json = json
      enqueue(url, e, pld, cnow, limit)
    end
  end
  return 0
end
-- A link packed in one argument, \`FP TAB pld TAB bucket key TAB bucket member TAB priority TAB body\` (body last: it
-- holds a tab): one bulk string a link instead of six, fewer for the client to encode and for Redis to parse.
local function add_packed(s, cnow, limit)
  local fp, pld, bucket, mem, pr, body = string.match(s, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t(.*)$')
  if not fp then error('rdfscout: malformed link argument') end
  return add_entry(fp, pld, bucket, mem, pr, body, cnow, limit)
end
-- What a worker mirrors of one PLD: {pld, queued, in flight, head priority, head seq, earliest back-off end or -1}.
local function view(pld)
  local hp, hs = 'inf', -1
  local head = redis.call('ZRANGE', qk(pld), 0, 0, 'WITHSCORES')
  if head[1] then hp = head[2]; hs = tonumber(string.sub(head[1], 1, 15)) end
  local _, op, os = overflow_head(pld)
  if op and (hs < 0 or tonumber(op) < tonumber(hp) or (tonumber(op) == tonumber(hp) and os < hs)) then hp = op; hs = os end
  local due = -1
  local waiting = redis.call('ZCARD', dk(pld))
  if waiting > 0 then for i, m in ipairs(redis.call('ZRANGE', dk(pld), 0, 99, 'WITHSCORES')) do
    if i % 2 == 1 then
      local seq = tonumber(string.sub(m, 1, 15))
      local h = redis.call('HGET', E, string.sub(m, 16))
      if h then
        local pr = parse(h).pr
        if hs < 0 or tonumber(pr) < tonumber(hp) or (tonumber(pr) == tonumber(hp) and seq < hs) then hp = pr; hs = seq end
      end
    elseif due < 0 then
      due = tonumber(m)
    end
  end end
  return { pld, tonumber(redis.call('HGET', PQ, pld) or '0'), tonumber(redis.call('HGET', PF, pld) or '0'), hp, hs, string.format('%d', due), waiting }
end
local function stat()
  local s = redis.call('HMGET', STAT, 'queued', 'inflight', 'done', 'spent', 'refetched')
  for i = 1, 5 do s[i] = tonumber(s[i] or '0') end
  return s
end
local function views(plds)
  local out, seen = {}, {}
  for _, pld in ipairs(plds) do
    if not seen[pld] then seen[pld] = true; table.insert(out, view(pld)) end
  end
  return out
end
-- Claims for worker up to want entries, one per PLD, from the PLDs of list in order (claim and finish scripts):
-- on each that is ready (politeness on Redis's clock, fewer than limit holders, per-PLD budget left) and has a due
-- entry, a lease and its most urgent entry, recorded in flight under the lease. The total budget counts fetches
-- spent and in flight across workers. Returns kind ('ok' | 'none' | 'budget'), {token, expiresAt, entry, …},
-- {pld, wait ms or -1, …} for the refused PLDs, and the PLDs looked at.
local function claim_batch(worker, list, want, limit, lease_ms, delay_ms, cnow, max_docs, max_pld, rnow)
  local s = stat()
  if s[4] + s[2] >= max_docs then return 'budget', {}, {}, {} end
  local claims, refused, looked, taken = {}, {}, {}, 0
  local function refuse(pld, wait) table.insert(refused, pld); table.insert(refused, string.format('%d', wait)) end
  -- Claims pld's most urgent due entry under a new lease, or says why not.
  local function claim_from(pld)
    local score = redis.call('ZSCORE', KEYS[1], pld)
    if not score then return refuse(pld, -1) end
    score = tonumber(score)
    if score > rnow then return refuse(pld, score < FULL and score - rnow or -1) end
    if tonumber(redis.call('HGET', PS, pld) or '0') + tonumber(redis.call('HGET', PF, pld) or '0') >= max_pld then
      redis.call('ZREM', KEYS[1], pld) -- its budget is spent (a retry offers it again)
      return refuse(pld, -1)
    end
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', dk(pld), '-inf', cnow)) do
      local fp = string.sub(m, 16)
      local e = parse(redis.call('HGET', E, fp))
      redis.call('ZREM', dk(pld), m)
      e.st = 'q'
      redis.call('ZADD', qk(pld), e.pr, m)
      redis.call('HSET', E, fp, fmt(e))
      touch(pld)
    end
    refill(pld)
    local top = redis.call('ZRANGE', qk(pld), 0, 0)
    if top[1] then
      redis.call('ZREM', qk(pld), top[1])
      local fp = string.sub(top[1], 16)
      local e = parse(redis.call('HGET', E, fp))
      e.st = 'f'
      redis.call('HSET', E, fp, fmt(e))
      local token, expires = grant_lease(pld, worker, limit, lease_ms, delay_ms, rnow)
      redis.call('HSET', IFL, token, pld .. '\\t' .. fp)
      count(STAT, 'queued', -1)
      count(STAT, 'inflight', 1)
      count(PQ, pld, -1)
      count(PF, pld, 1)
      table.insert(claims, token)
      table.insert(claims, string.format('%d', expires))
      table.insert(claims, fmt(e))
      taken = taken + 1
      return
    end
    local waiting = redis.call('ZRANGE', dk(pld), 0, 0, 'WITHSCORES')
    if waiting[2] then
      redis.call('ZADD', KEYS[1], waiting[2], pld) -- only back-offs left: ready when the first ends
      refuse(pld, math.max(tonumber(waiting[2]) - cnow, 0))
    else
      redis.call('ZREM', KEYS[1], pld) -- nothing queued: offered again when a link is added
      refuse(pld, -1)
    end
    table.insert(looked, pld)
  end
  for _, pld in ipairs(list) do
    if taken >= want then break end
    if s[4] + s[2] + taken >= max_docs then break end
    claim_from(pld)
  end
  return taken > 0 and 'ok' or 'none', claims, refused, looked
end
`;

/**
 * Add. ARGV: P, limit, cnow, then one packed link per entry (`add_packed`: FP, pld, bucket key, bucket member,
 * priority, body).
 * Returns {'ok', {1|0 per entry: new}, stat, views}.
 */
export const QUEUE_ADD_LUA = `${QUEUE_PRELUDE}
local limit, cnow = tonumber(ARGV[2]), tonumber(ARGV[3])
local flags, plds = {}, {}
for i = 4, #ARGV do
  table.insert(flags, add_packed(ARGV[i], cnow, limit))
end
for p in pairs(touched) do table.insert(plds, p) end
return {'ok', flags, stat(), views(plds)}
`;

/**
 * Claim, in a batch. ARGV: P, worker, limit, leaseMs, delayMs, cnow, maxDocs, maxDocsPerPld, want, then candidate
 * PLDs in order of preference (none: any ready PLD). Goes through the candidates and, on each that is ready
 * (politeness on Redis's clock, fewer than `limit` holders, per-PLD budget left) and has a due entry, takes a lease
 * and hands out the PLD's most urgent entry, recorded in flight under the lease — until `want` entries are claimed.
 * The total budget counts fetches spent and in flight, across workers.
 * Returns {'ok' | 'none' | 'budget', {token, expiresAt, header, …} per claim, stat, views, {pld, wait ms or -1, …}}:
 * the last list has each refused candidate with how long until it may be ready (-1: unknown, e.g. no work).
 */
export const QUEUE_CLAIM_LUA = `${QUEUE_PRELUDE}
local worker, limit, lease_ms, delay_ms = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local cnow, max_docs, max_pld, want = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local rnow = now_ms()
redis.call('ZADD', KEYS[6], rnow, worker)
redis.call('SADD', P .. 'wall', worker)
local list = {}
if #ARGV > 9 then
  for i = 10, #ARGV do table.insert(list, ARGV[i]) end
else
  list = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', rnow, 'LIMIT', 0, math.max(16, want))
end
local kind, claims, refused, looked = claim_batch(worker, list, want, limit, lease_ms, delay_ms, cnow, max_docs, max_pld, rnow)
for pld in pairs(touched) do table.insert(looked, pld) end
return {kind, claims, stat(), views(looked), refused}
`;

/**
 * Finish. ARGV: P, worker, limit, waitMs, fetchId, retentionMs, token, FP, mode ('done' | 'retry' | 'back'),
 * spent (1|0), rdf (1|0), retry notBefore, cnow, log entry ('' for none), alias count, the retry's priority, attempts
 * and entry JSON ('' for all: as it was, one more attempt; a strategy's second thoughts change them), then the claim
 * that rides with the release: candidate count n (0: none), maxDocs, maxDocsPerPld, leaseMs, delayMs and n candidate
 * PLDs in order of preference; then (FP, pld, bucket, member) per alias, then one packed link (`add_packed`) per link
 * to add. Only while `token` is live: the lease ends (the PLD is ready again at now + waitMs at the earliest), the
 * entry is done (or queued again: 'retry' with one more attempt, 'back' as it was), aliases are marked done, links are
 * queued, the budget and the worker's counts grow and the log entry is appended — all in one step; then, as the claim
 * script would right after it (`claim_batch`, same checks, same record in flight under a new lease), up to n entries
 * are claimed for the worker from the candidates (issue 15: one round trip a page less). Returns {'ok', {new links},
 * stat, views, {claim kind, claims, refused}}; {'stale', {}, stat, {}} when the lease was lost (nothing applied, nothing
 * claimed); {'already', {}, stat, {}, {claim kind, claims, {}}} when this fetch was applied before (the script sent
 * again after a lost reply): nothing applied again, and the first run's claims whose leases are live, handed out once.
 */
export const QUEUE_FINISH_LUA = `${QUEUE_PRELUDE}
local worker, limit, wait_ms, fetch_id, retention = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
local token, url, mode, spent, rdf = ARGV[7], ARGV[8], ARGV[9], ARGV[10], tonumber(ARGV[11])
local retry_nb, cnow, log, naliases = ARGV[12], tonumber(ARGV[13]), ARGV[14], tonumber(ARGV[15])
local retry_pr, retry_at, retry_json = ARGV[16], ARGV[17], ARGV[18]
local nclaim, max_docs, max_pld, lease_ms, delay_ms = tonumber(ARGV[19]), tonumber(ARGV[20]), tonumber(ARGV[21]), tonumber(ARGV[22]), tonumber(ARGV[23])
local rnow = now_ms()
local v = redis.call('HGET', KEYS[4], token)
if not v then
  if redis.call('ZSCORE', KEYS[7], fetch_id) then
    -- Sent again (ioredis resends a script whose reply a dropped connection lost): the claims the first run made,
    -- once, those whose lease is still live, so that they are fetched now and not only after their lease expires.
    local kept, live = redis.call('LRANGE', P .. 'fc:' .. fetch_id, 0, -1), {}
    redis.call('DEL', P .. 'fc:' .. fetch_id)
    for k = 1, #kept, 3 do
      if redis.call('HEXISTS', KEYS[4], kept[k]) == 1 then
        table.insert(live, kept[k]); table.insert(live, kept[k + 1]); table.insert(live, kept[k + 2])
      end
    end
    return {'already', {}, stat(), {}, {#live > 0 and 'ok' or 'none', live, {}}}
  end
  return {'stale', {}, stat(), {}}
end
local held = redis.call('HGET', IFL, token)
if held ~= string.match(v, '^(.-)\\t') .. '\\t' .. url then return redis.error_reply('rdfscout: lease ' .. token .. ' does not hold ' .. url) end
local pld = string.match(v, '^(.-)\\t')
end_lease(token, pld, worker, rnow + wait_ms, limit, rnow)
redis.call('HDEL', IFL, token)
count(STAT, 'inflight', -1)
count(PF, pld, -1)
local e = parse(redis.call('HGET', E, url))
local W = P .. 'w:' .. worker
if mode == 'retry' or mode == 'back' then
  if mode == 'retry' then e.at = string.format('%d', tonumber(e.at) + 1); e.nb = retry_nb end
  if mode == 'retry' and retry_pr ~= '' then e.pr = retry_pr; e.at = retry_at; e.json = retry_json end
  e.seq = redis.call('HINCRBY', STAT, 'seq', 1)
  enqueue(url, e, pld, cnow, limit)
else
  redis.call('HDEL', E, url)
  count(STAT, 'done', 1)
  if spent == '1' then
    count(STAT, 'spent', 1)
    count(PS, pld, 1)
    redis.call('HINCRBY', W, 'fetched', 1)
  end
  if rdf > 0 then redis.call('HINCRBY', W, 'rdf', rdf) end
  if e.lost == '1' then
    count(STAT, 'refetched', 1)
    redis.call('HINCRBY', W, 'refetched', 1)
  end
end
local plds, added = {pld}, 0
local i = 24 + nclaim
for _ = 1, naliases do
  local aurl, apld = ARGV[i], ARGV[i + 1]
  if redis.call('SADD', ARGV[i + 2], ARGV[i + 3]) == 1 then
    count(STAT, 'done', 1)
  else
    local h = redis.call('HGET', E, aurl)
    if h and parse(h).st ~= 'f' then
      unqueue(aurl, parse(h), apld)
      redis.call('HDEL', E, aurl)
      count(STAT, 'done', 1)
      table.insert(plds, apld)
    end
  end
  i = i + 4
end
for j = i, #ARGV do
  added = added + add_packed(ARGV[j], cnow, limit)
end
if log ~= '' then redis.call('RPUSH', P .. 'log', log) end
redis.call('ZADD', KEYS[7], rnow, fetch_id)
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', rnow - retention)
local claimed = {'none', {}, {}}
if nclaim > 0 then
  local list = {}
  for k = 24, 23 + nclaim do table.insert(list, ARGV[k]) end
  local kind, claims, refused, looked = claim_batch(worker, list, nclaim, limit, lease_ms, delay_ms, cnow, max_docs, max_pld, rnow)
  claimed = {kind, claims, refused}
  for _, p in ipairs(looked) do table.insert(plds, p) end
  if #claims > 0 then -- kept for a resend of this script while the claims' leases last (see 'already' above)
    redis.call('RPUSH', P .. 'fc:' .. fetch_id, unpack(claims))
    redis.call('PEXPIRE', P .. 'fc:' .. fetch_id, lease_ms)
  end
end
for p in pairs(touched) do table.insert(plds, p) end -- a link already seen changed nothing: no view
return {'ok', {added}, stat(), views(plds), claimed}
`;

/**
 * Requeue orphans. ARGV: P, limit. Every entry in flight under a lease that no longer exists (reclaimed: its worker
 * died or stopped renewing) goes back to its queue where it was (same seq), marked lost, so that its next fetch
 * counts as refetched. Idempotent: any worker may run it after `reclaim`. Returns {'ok', {requeued}, stat, views}.
 */
export const QUEUE_REQUEUE_LUA = `${QUEUE_PRELUDE}
local limit = tonumber(ARGV[2])
local all = redis.call('HGETALL', IFL)
local plds = {}
for i = 1, #all, 2 do
  if redis.call('HEXISTS', KEYS[4], all[i]) == 0 then
    local pld, url = string.match(all[i + 1], '^(.-)\\t(.*)$')
    local e = parse(redis.call('HGET', E, url))
    e.lost = '1'
    e.nb = '0'
    redis.call('HDEL', IFL, all[i])
    count(STAT, 'inflight', -1)
    count(PF, pld, -1)
    enqueue(url, e, pld, 0, limit)
    table.insert(plds, pld)
  end
end
return {'ok', {#plds}, stat(), views(plds)}
`;

/**
 * Changes. ARGV: P, since (a `ver` this worker read before; -1: none yet). Answers the views of the PLDs changed
 * since then (-1: of every PLD with queued or in-flight work) and the current `ver`: what a worker re-reads to see
 * the others' writes, bounded by what changed. Returns {'ok', {ver}, stat, views}.
 */
export const QUEUE_CHANGES_LUA = `${QUEUE_PRELUDE}
local since = tonumber(ARGV[2])
local now_ver = tonumber(redis.call('HGET', STAT, 'ver') or '0')
local plds
if since < 0 then
  plds = redis.call('HKEYS', PQ)
  for _, p in ipairs(redis.call('HKEYS', PF)) do table.insert(plds, p) end
elseif since >= now_ver then
  plds = {}
else
  plds = redis.call('ZRANGEBYSCORE', CHG, '(' .. since, '+inf')
end
return {'ok', {now_ver}, stat(), views(plds)}
`;
