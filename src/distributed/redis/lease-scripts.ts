// **Lease scripts**: the Lua that grants, renews, releases and reclaims PLD leases atomically, on Redis's clock.

/** Score of a PLD in the ready set while it has `limit` holders: far beyond any epoch ms, so never due. */
const FULL_SCORE = 2 ** 52;

/**
 * Keys every lease script takes, in this order (KEYS[1..9]); see `CrawlKeys`. Count tables follow in the release.
 */
export const LEASE_KEY_NAMES = ['ready', 'polite', 'held', 'leases', 'expiry', 'workers', 'applied', 'tokenSeq', 'gate'] as const;

/** Lua shared by the scripts: Redis's clock in ms, and what freeing one holder of a PLD does. */
const PRELUDE = `
local FULL = ${FULL_SCORE}
local BELOW_FULL = '(${FULL_SCORE}' -- a string: Lua's own number formatting would round it
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- One holder of pld leaves; no new lease starts before ready_at (politeness, BeeBot §2).
local function free_holder(pld, ready_at, limit)
  local holders = redis.call('HINCRBY', KEYS[3], pld, -1)
  if holders <= 0 then
    redis.call('HDEL', KEYS[3], pld)
    holders = 0
  end
  local polite = math.max(tonumber(redis.call('HGET', KEYS[2], pld) or '0'), ready_at)
  redis.call('HSET', KEYS[2], pld, polite)
  -- The send gate too: a lease held by another worker sends nothing before ready_at either (Crawl-delay, Retry-After).
  redis.call('HSET', KEYS[9], pld, math.max(tonumber(redis.call('HGET', KEYS[9], pld) or '0'), ready_at))
  if redis.call('ZSCORE', KEYS[1], pld) then
    if holders >= limit then redis.call('ZADD', KEYS[1], FULL, pld) else redis.call('ZADD', KEYS[1], polite, pld) end
  end
  return polite
end
-- Grants a lease on a ready pld (the caller checked it): one more holder, the next politeness interval starts.
local function grant_lease(pld, worker, limit, lease_ms, delay_ms, now)
  local holders = redis.call('HINCRBY', KEYS[3], pld, 1)
  local token = worker .. '/' .. redis.call('INCR', KEYS[8])
  local expires = now + lease_ms
  redis.call('HSET', KEYS[4], token, pld .. '\t' .. worker)
  redis.call('ZADD', KEYS[5], expires, token)
  local polite = math.max(tonumber(redis.call('HGET', KEYS[2], pld) or '0'), now + delay_ms)
  redis.call('HSET', KEYS[2], pld, polite)
  if holders >= limit then redis.call('ZADD', KEYS[1], FULL, pld) else redis.call('ZADD', KEYS[1], polite, pld) end
  return token, expires
end
-- Ends the lease \`token\` (held by worker on pld): the PLD is ready again at max(its politeness time, ready_at).
local function end_lease(token, pld, worker, ready_at, limit, now)
  redis.call('HDEL', KEYS[4], token)
  redis.call('ZREM', KEYS[5], token)
  redis.call('ZADD', KEYS[6], now, worker)
  return free_holder(pld, ready_at, limit)
end
-- Puts a PLD with work among those that can be leased (no-op if it is there). Returns 1 if it was added.
local function offer_pld(pld, limit)
  if redis.call('ZSCORE', KEYS[1], pld) then return 0 end
  local holders = tonumber(redis.call('HGET', KEYS[3], pld) or '0')
  local polite = tonumber(redis.call('HGET', KEYS[2], pld) or '0')
  if holders >= limit then polite = FULL end
  redis.call('ZADD', KEYS[1], polite, pld)
  return 1
end
`;

/** The Lua shared by every script that works on lease keys (KEYS[1..8] as `LEASE_KEY_NAMES`), for other script families. */
export const LEASE_PRELUDE = PRELUDE;

/**
 * Acquire. ARGV: worker, limit, leaseMs, delayMs, then candidate PLDs in order of preference (none: any ready PLD).
 * Grants a lease on the first candidate that is ready (politeness time ≤ now, fewer than `limit` holders); starts
 * its next politeness interval (two lease starts on one PLD are ≥ delayMs apart). Heartbeats the worker.
 * Returns {1, now, pld, token, expiresAt} or {0, now, earliest due time among the candidates or -1}.
 */
export const ACQUIRE_LUA = `${PRELUDE}
local now = now_ms()
local worker, limit, lease_ms, delay_ms = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZADD', KEYS[6], now, worker)
local pld = false
local earliest = -1
if #ARGV > 4 then
  for i = 5, #ARGV do
    local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
    if s then
      s = tonumber(s)
      if s <= now then pld = ARGV[i]; break end
      if s < FULL and (earliest < 0 or s < earliest) then earliest = s end
    end
  end
else
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, 1)
  if due[1] then
    pld = due[1]
  else
    local first = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', BELOW_FULL, 'WITHSCORES', 'LIMIT', 0, 1)
    if first[2] then earliest = tonumber(first[2]) end
  end
end
if not pld then return {0, now, earliest} end
local token, expires = grant_lease(pld, worker, limit, lease_ms, delay_ms, now)
return {1, now, pld, token, expires}
`;

/** Renew. ARGV: token, leaseMs. Returns {1, now, expiresAt}, or {0, now} when the lease is gone (stale token). */
export const RENEW_LUA = `${PRELUDE}
local now = now_ms()
local v = redis.call('HGET', KEYS[4], ARGV[1])
if not v then return {0, now} end
local worker = string.match(v, '\\t(.*)$')
redis.call('ZADD', KEYS[6], now, worker)
local expires = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[5], expires, ARGV[1])
return {1, now, expires}
`;

/**
 * Release. KEYS[10..]: count tables. ARGV: token, waitMs, limit, fetchId, retentionMs, then triples
 * (key index ≥ 9, field, increment ≥ 0). A stale token (the lease was reclaimed) changes nothing: {0, now}, or
 * {2, now} if fetchId was applied already. Otherwise the lease ends and the PLD is ready again at max(its politeness
 * time, now + waitMs): {1, now, readyAt} with the increments added, or {2, now, readyAt} without them when fetchId
 * was applied before (a retried release never counts twice).
 */
export const RELEASE_LUA = `${PRELUDE}
local now = now_ms()
local token, wait_ms, limit, fetch_id, retention = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local applied = fetch_id ~= '' and redis.call('ZSCORE', KEYS[7], fetch_id)
local v = redis.call('HGET', KEYS[4], token)
if not v then
  if applied then return {2, now} end
  return {0, now}
end
for i = 6, #ARGV, 3 do
  local by = tonumber(ARGV[i + 2])
  if not by or by < 0 or tonumber(ARGV[i]) < 10 or not KEYS[tonumber(ARGV[i])] then return redis.error_reply('rdfscout: bad increment at ARGV ' .. i) end
end
local pld, worker = string.match(v, '^(.-)\\t(.*)$')
local ready_at = end_lease(token, pld, worker, now + wait_ms, limit, now)
if applied then return {2, now, ready_at} end
for i = 6, #ARGV, 3 do
  -- HINCRBYFLOAT for all: a field may get integer and fractional increments; whole sums stay exact (long double).
  redis.call('HINCRBYFLOAT', KEYS[tonumber(ARGV[i])], ARGV[i + 1], ARGV[i + 2])
end
if fetch_id ~= '' then
  redis.call('ZADD', KEYS[7], now, fetch_id)
  redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', now - retention)
end
return {1, now, ready_at}
`;

/**
 * Reclaim. ARGV: heartbeatTimeoutMs, delayMs, limit. Ends every lease that expired, or whose worker's last heartbeat
 * is older than the timeout (that worker is forgotten); each PLD freed is ready again at now + delayMs at the
 * earliest (the fetch may have just happened). Returns {now, token1, pld1, worker1, token2, …}.
 */
export const RECLAIM_LUA = `${PRELUDE}
local now = now_ms()
local timeout, delay_ms, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local dead = {}
for _, w in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now - timeout)) do dead[w] = true end
local out = {now}
local all = redis.call('HGETALL', KEYS[4])
for i = 1, #all, 2 do
  local token = all[i]
  local pld, worker = string.match(all[i + 1], '^(.-)\\t(.*)$')
  local expires = tonumber(redis.call('ZSCORE', KEYS[5], token) or '0')
  if dead[worker] or expires <= now then
    redis.call('HDEL', KEYS[4], token)
    redis.call('ZREM', KEYS[5], token)
    free_holder(pld, now + delay_ms, limit)
    table.insert(out, token)
    table.insert(out, pld)
    table.insert(out, worker)
  end
end
for w in pairs(dead) do redis.call('ZREM', KEYS[6], w) end
return out
`;

/**
 * Send gate, just before a request leaves. ARGV: pld, waitMs (--delay-ms, or the host's larger
 * Crawl-delay), unleased ('1' or '0'). Passes when Redis's now has reached the PLD's gate time, which then moves to
 * now + waitMs: two requests to one PLD pass ≥ waitMs apart across the cluster, however many leases it has. Returns
 * {1, now} when it passed, {0, now, gateAt} when it did not (ask again at gateAt).
 * `unleased` (host concurrency 1, where a worker holding its lease sends without asking: the lease spaces the sends,
 * see SharedWorker.gate): the caller lost its lease, so it also waits until no lease is held on the PLD and its
 * politeness time has passed, and its pass moves the politeness time (and the PLD's ready score) to now + waitMs, so
 * that no lease starts before then either.
 */
export const GATE_LUA = `${PRELUDE}
local now = now_ms()
local pld, wait_ms, unleased = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local at = tonumber(redis.call('HGET', KEYS[9], pld) or '0')
if unleased then
  if tonumber(redis.call('HGET', KEYS[3], pld) or '0') > 0 then return {0, now, now + math.max(wait_ms, 100)} end
  at = math.max(at, tonumber(redis.call('HGET', KEYS[2], pld) or '0'))
end
if now < at then return {0, now, at} end
redis.call('HSET', KEYS[9], pld, now + wait_ms)
if unleased then
  redis.call('HSET', KEYS[2], pld, now + wait_ms)
  local score = redis.call('ZSCORE', KEYS[1], pld)
  if score and tonumber(score) < now + wait_ms then redis.call('ZADD', KEYS[1], now + wait_ms, pld) end
end
return {1, now}
`;

/** Heartbeat. ARGV: worker. Returns now. */
export const HEARTBEAT_LUA = `${PRELUDE}
local now = now_ms()
redis.call('ZADD', KEYS[6], now, ARGV[1])
return now
`;

/**
 * Offer a PLD (it has work). ARGV: pld, limit. A PLD already offered keeps its score; a new one is due at its
 * politeness time (0 if it never had one), or never while it is at its limit. Returns 1 if it was added.
 */
export const OFFER_LUA = `${PRELUDE}
return offer_pld(ARGV[1], tonumber(ARGV[2]))
`;
