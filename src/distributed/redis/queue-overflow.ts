// **Queue overflow**: the Lua that caps each PLD's queue held in Redis and keeps the rest in compact sorted runs, order kept.

/**
 * Lua functions for the queue scripts (they use the queue prelude's `P`, `E`, `STAT`, `qk`, `member`, `parse`).
 * Redis memory per queued URL is dominated by its entry (its link's features, ~0.5 KB): a crawl with 100 M URLs
 * queued would not fit. So a PLD's queue (`P q:PLD`) holds at most `cap` entries (`P stat` field `cap`; 0 or
 * absent: no cap); past it, its least urgent half moves out into a **run**: a LIST `P r:PLD:ID` of the entries
 * (`FP TAB entry`) sorted by (priority, seq), listed in the ZSET `P o:PLD` (ID → its head's priority). A LIST is
 * stored as packed nodes with no per-entry overhead (and LZF-compressed by Redis with `list-compress-depth`), and
 * the entry leaves the entry hash and the queue's ZSET. Before a queue hands out its head, every run whose head
 * comes first in (priority, seq) order is moved back into the queue, a chunk at a time: the hand-out order is the
 * one an uncapped queue has, and nothing is lost (each move is inside one script). A spilled entry cannot be found
 * by URL: a link found again more urgent while its entry is spilled keeps its priority, and a redirect's alias
 * that is spilled stays queued.
 */
export const OVERFLOW_LUA = `
local CAP = false
local function cap()
  if CAP == false then CAP = tonumber(redis.call('HGET', STAT, 'cap') or '0') end
  return CAP
end
local function ok(pld) return P .. 'o:' .. pld end
local function rk(pld, id) return P .. 'r:' .. pld .. ':' .. id end
-- The head of a run item ('FP TAB entry'): priority (as stored: a string), seq.
local function item_head(item)
  local e = parse(string.match(item, '^[^\\t]+\\t(.*)$'))
  return e.pr, e.seq
end
-- The overflow's most urgent entry of pld: run id, priority (string), seq (nil when the overflow is empty).
local function overflow_head(pld)
  local best = redis.call('ZRANGE', ok(pld), 0, 0, 'WITHSCORES')
  if not best[1] then return nil end
  local id, bp, bs = nil, nil, nil
  for _, rid in ipairs(redis.call('ZRANGEBYSCORE', ok(pld), best[2], best[2], 'LIMIT', 0, 16)) do
    local pr, seq = item_head(redis.call('LINDEX', rk(pld, rid), 0))
    if not id or tonumber(pr) < tonumber(bp) or (tonumber(pr) == tonumber(bp) and seq < bs) then id, bp, bs = rid, pr, seq end
  end
  return id, bp, bs
end
-- Moves the least urgent entries of pld's queue past cap/2 into a new run (at most 4 000 per call).
local function spill(pld)
  local c = cap()
  if c <= 0 then return end
  local n = redis.call('ZCARD', qk(pld))
  if n <= c then return end
  local m = math.min(n - math.floor(c / 2), 4000)
  local members = redis.call('ZRANGE', qk(pld), -m, -1)
  local fps = {}
  for i, mem in ipairs(members) do fps[i] = string.sub(mem, 16) end
  local values = redis.call('HMGET', E, unpack(fps))
  local id = redis.call('HINCRBY', STAT, 'run', 1)
  local items = {}
  for i, fp in ipairs(fps) do items[i] = fp .. '\\t' .. values[i] end
  redis.call('RPUSH', rk(pld, id), unpack(items))
  redis.call('HDEL', E, unpack(fps))
  redis.call('ZREMRANGEBYRANK', qk(pld), -m, -1)
  redis.call('ZADD', ok(pld), (item_head(items[1])), id)
end
-- Before pld's queue hands out its head: runs whose head comes first move back into the queue (order kept).
local function refill(pld)
  for _ = 1, 1000 do
    local id, pr, seq = overflow_head(pld)
    if not id then return end
    local head = redis.call('ZRANGE', qk(pld), 0, 0, 'WITHSCORES')
    if head[1] then
      local hp, hs = tonumber(head[2]), tonumber(string.sub(head[1], 1, 15))
      if hp < tonumber(pr) or (hp == tonumber(pr) and hs < seq) then return end
    end
    local key = rk(pld, id)
    for _, item in ipairs(redis.call('LPOP', key, math.max(16, math.floor(cap() / 4)))) do
      local fp, h = string.match(item, '^([^\\t]+)\\t(.*)$')
      local e = parse(h)
      redis.call('ZADD', qk(pld), e.pr, member(e.seq, fp))
      redis.call('HSET', E, fp, h)
    end
    local nxt = redis.call('LINDEX', key, 0)
    if nxt then redis.call('ZADD', ok(pld), (item_head(nxt)), id) else redis.call('ZREM', ok(pld), id) end
  end
end
`;
