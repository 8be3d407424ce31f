// **Queue Lua**: the functions every script of the shared frontier shares — entries, per-PLD counts, views, claims under PLD leases.
import { LEASE_PRELUDE } from './lease-scripts.ts';
import { OVERFLOW_LUA } from './queue-overflow.ts';

/**
 * Keys under the crawl's prefix P (ARGV[1] of every script; KEYS[1..8] are the lease keys, `LEASE_KEY_NAMES`). An
 * entry is named by its URL's 64-bit fingerprint FP (16 hex digits, `urlFingerprint`); its URL is stored once, in
 * its entry (bytes per queued URL).
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
export const QUEUE_PRELUDE = `${LEASE_PRELUDE}
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
-- touched_list: the PLDs in the order first touched, so that answers list them as one process's frontier would
-- meet them (a round-robin bandit serves PLDs in that order: the same order in every mode).
local touched, touched_list, ver = {}, {}, false
-- Records that pld's view changed (once per script): workers that read the change feed re-read it.
local function touch(pld)
  if touched[pld] then return end
  touched[pld] = true
  table.insert(touched_list, pld)
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
