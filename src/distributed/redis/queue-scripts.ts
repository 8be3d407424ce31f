// **Queue scripts**: the scripts of the shared frontier — add, claim, finish a fetch with its release, requeue, changes (keys and shared Lua: queue-lua.ts).
import { QUEUE_PRELUDE } from './queue-lua.ts';

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
for _, p in ipairs(touched_list) do table.insert(plds, p) end
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
for _, pld in ipairs(touched_list) do table.insert(looked, pld) end
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
 * are claimed for the worker from the candidates (one round trip a page less). Returns {'ok', {new links},
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
for _, p in ipairs(touched_list) do table.insert(plds, p) end -- a link already seen changed nothing: no view
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
