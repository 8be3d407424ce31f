// **dashboard.js** draws the live crawl: one EventSource (a snapshot, then deltas at 1 Hz), counters, charts
// (charts.js with Observable Plot), the sortable per-PLD table, log, errors, learned parents, controls, link tables.
// Every URL is relative, so the page works behind a reverse proxy under a sub-path.
import { armsChart, harvestChart, queueChart } from './charts.js';

const Plot = window.Plot;
const $ = (id) => document.getElementById(id);
const model = { status: null, plds: [], log: [], errors: [], errorKinds: {}, harvest: [], series: [], arms: [], learned: null, references: [], cluster: null };
const sort = { key: 'fetched', dir: -1 };
const fmt = new Intl.NumberFormat('en');
const pct = (x) => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)}%`);

function secondsText(s) {
  if (s === null || !Number.isFinite(s)) return '?';
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

function renderCounters() {
  const s = model.status;
  if (!s) return;
  $('c-fetched').textContent = fmt.format(s.fetched);
  $('c-rdfDocuments').textContent = fmt.format(s.rdfDocuments);
  $('c-triples').textContent = fmt.format(s.triples);
  $('c-dropped').textContent = fmt.format(s.statementsDropped ?? 0);
  $('c-linksCut').textContent = fmt.format(s.linksBeyondCap ?? 0);
  $('c-harvestRate').textContent = pct(s.harvestRate);
  $('c-precision').textContent = pct(s.precision);
  $('c-errors').textContent = fmt.format(s.errors);
  $('c-pps').textContent = `${s.pagesPerSecond.now.toFixed(1)} / ${s.pagesPerSecond.average.toFixed(1)}`;
  $('c-queued').textContent = fmt.format(s.queued);
  $('c-inFlight').textContent = fmt.format(s.inFlight);
  const f = s.forecast;
  // An outage pause: no forecast at a pace the crawl is not going at, and the badge says why and for how long.
  const offline = !s.finished && !s.stopped && s.network?.paused === true;
  $('c-forecast').textContent = s.finished ? 'done' : offline ? 'none while the network is down' : f.by === 'unknown' ? '?' : `${f.by} in ${secondsText(f.etaSeconds)}`;
  const state = s.finished ? 'finished' : s.stopped ? 'stopped' : s.paused ? 'paused' : offline ? 'offline' : 'running';
  $('state').textContent = offline ? `paused: network (for ${secondsText(s.network.offlineMs / 1000)})` : state;
  $('state').className = `badge ${offline ? 'paused' : state}`;
}

function replace(id, node) {
  const host = $(id);
  host.replaceChildren(node);
}

function renderCharts() {
  const width = Math.max(320, Math.min(720, $('chart-harvest').clientWidth || 640));
  // Reference curves (oracle, breadth-first on the simulated web) are drawn as far as this crawl has come.
  const upTo = model.harvest.at(-1)?.[0] ?? 0;
  const refs = model.references.map((r) => ({ name: r.name, points: r.points.filter(([k]) => k <= upTo) }));
  replace('chart-harvest', harvestChart(Plot, [{ name: 'this crawl', points: model.harvest }, ...refs], { width }));
  if (model.series.length > 1) replace('chart-queue', queueChart(Plot, model.series, { width }));
  if (model.arms.length > 0) replace('chart-arms', armsChart(Plot, model.arms.map((a) => ({ t: a.t, arm: a.arm, value: a.pulls })), { width, yLabel: 'pulls' }));
}

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  td.title = text;
  return td;
}

function renderPlds() {
  const needle = $('pld-filter').value.trim().toLowerCase();
  const rows = model.plds.filter((p) => needle === '' || p.pld.includes(needle));
  const value = (p) => (sort.key === 'statuses' ? Object.keys(p.statuses).join(',') : p[sort.key]);
  rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1) * sort.dir;
  });
  const body = $('plds').tBodies[0];
  body.replaceChildren(
    ...rows.slice(0, 300).map((p) => {
      const tr = document.createElement('tr');
      const statuses = Object.entries(p.statuses).map(([k, v]) => `${k}:${v}`).join(' ');
      const blocking = Object.keys(p.statuses).some((k) => k === '403' || k === '429' || k.startsWith('5'));
      tr.append(
        cell(p.pld), cell(fmt.format(p.fetched)), cell(fmt.format(p.rdfDocuments)), cell(pct(p.harvestRate)),
        cell(statuses, blocking ? 'bad' : ''), cell(fmt.format(p.queued)), cell(p.pulls ?? '–'), cell(p.index === null ? '–' : p.index.toFixed(3)),
        cell(p.nextAllowedInMs ?? '–'), cell(p.robotsDelayMs ?? '–'), cell(p.errors), cell(p.blocked ? 'yes' : ''),
      );
      return tr;
    }),
  );
  for (const th of $('plds').tHead.rows[0].cells) th.className = th.dataset.key === sort.key ? (sort.dir > 0 ? 'asc' : 'desc') : '';
}

function logLine(l) {
  const li = document.createElement('li');
  li.textContent = `${l.seq} ${l.status ?? l.outcome} ${l.actual}${l.triples ? ` ${l.triples}t` : ''}${l.dropped ? ` (${l.dropped} dropped)` : ''} ${l.ms}ms ${l.url}${l.error ? ` — ${l.error}: ${l.errorMessage ?? ''}` : ''}`;
  if (l.error) li.className = 'bad';
  return li;
}

function renderLists() {
  $('log').replaceChildren(...model.log.slice(-100).reverse().map(logLine));
  $('errors').replaceChildren(...model.errors.slice(-50).reverse().map(logLine));
  $('error-kinds').textContent = Object.entries(model.errorKinds).map(([k, v]) => `${k}: ${v}`).join(' · ') || 'no errors';
  const docs = model.log.slice(-20).reverse();
  $('docs').tBodies[0].replaceChildren(
    ...docs.map((d) => {
      const tr = document.createElement('tr');
      const right = d.predicted === null ? '' : (d.predicted === 'R') === (d.actual === 'R') ? 'ok' : 'bad';
      tr.append(cell(d.seq), cell(d.url), cell(d.predicted ?? '–'), cell(d.actual, right), cell(d.triples));
      return tr;
    }),
  );
  if (model.learned) {
    $('learned-count').textContent = `${model.learned.total} parents learned (${model.learned.strategy ?? 'strategy'})`;
    $('learned').replaceChildren(...model.learned.parents.slice(-50).reverse().map((u) => Object.assign(document.createElement('li'), { textContent: u })));
  }
}

// A distributed crawl (crawl --redis … --serve): the shared progress, per worker and in total.
function renderCluster() {
  const c = model.cluster;
  $('cluster').hidden = !c;
  if (!c) return;
  $('cluster-error').textContent = c.error ? `Redis: ${c.error}` : '';
  const s = c.status;
  if (!s) return;
  $('cluster-workers-count').textContent = String(s.workers.length);
  $('cluster-totals').textContent =
    `fetched ${fmt.format(s.fetched)} · queued ${fmt.format(s.queued)} · in flight ${fmt.format(s.inFlight)} · done ${fmt.format(s.done)} · refetched ${fmt.format(s.refetched)}`;
  $('cluster-workers').tBodies[0].replaceChildren(
    ...s.workers.map((w) => {
      const tr = document.createElement('tr');
      tr.append(cell(w.worker), cell(w.alive ? 'alive' : 'gone'), cell(fmt.format(w.fetched)), cell(fmt.format(w.rdfDocuments)), cell(fmt.format(w.refetched)));
      return tr;
    }),
  );
}

function render() {
  renderCounters();
  renderCluster();
  renderCharts();
  renderPlds();
  renderLists();
}

function apply(data, full) {
  if (full) Object.assign(model, data);
  else {
    for (const k of ['status', 'plds', 'errorKinds', 'learned', 'cluster']) if (data[k] !== undefined) model[k] = data[k];
    // Deltas are shared by every open page: keep only what is newer than what this page holds.
    if (data.log) {
      const lastSeq = model.log.at(-1)?.seq ?? 0;
      const fresh = data.log.filter((l) => l.seq > lastSeq);
      model.log.push(...fresh);
      model.errors.push(...fresh.filter((l) => l.error));
      model.log = model.log.slice(-200);
      model.errors = model.errors.slice(-100);
    }
    const lastK = model.harvest.at(-1)?.[0] ?? 0;
    if (data.harvest) {
      const same = data.harvest.find(([k]) => k === lastK); // the server may have updated its last point
      if (same) model.harvest[model.harvest.length - 1] = same;
      model.harvest.push(...data.harvest.filter(([k]) => k > lastK));
    }
    const lastT = model.series.at(-1)?.t ?? 0;
    if (data.series) model.series.push(...data.series.filter((p) => p.t > lastT));
    const lastArmT = model.arms.at(-1)?.t ?? 0;
    if (data.arms) model.arms.push(...data.arms.filter((a) => a.t > lastArmT));
  }
  render();
}

const events = new EventSource('api/events');
events.addEventListener('snapshot', (e) => apply(JSON.parse(e.data), true));
events.addEventListener('delta', (e) => apply(JSON.parse(e.data), false));
events.addEventListener('bye', () => events.close());

async function control(action, body = {}) {
  const headers = { 'Content-Type': 'application/json' };
  const token = $('token').value;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`api/control/${action}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = await res.json();
  $('control-msg').textContent = res.ok ? `${action}: ok` : `${action}: ${answer.error}`;
  if (answer.status) {
    model.status = answer.status;
    renderCounters();
  }
}

$('pause').addEventListener('click', () => control('pause'));
$('resume').addEventListener('click', () => control('resume'));
$('stop').addEventListener('click', () => control('stop'));
$('seeds-form').addEventListener('submit', (e) => {
  e.preventDefault();
  control('seeds', { urls: $('seeds').value.split(/\s+/).filter(Boolean) });
});
$('block-form').addEventListener('submit', (e) => {
  e.preventDefault();
  control('block', { pld: $('block').value });
});
$('pld-filter').addEventListener('input', renderPlds);
$('plds').tHead.addEventListener('click', (e) => {
  const key = e.target.dataset?.key;
  if (!key) return;
  sort.dir = sort.key === key ? -sort.dir : -1;
  sort.key = key;
  renderPlds();
});

$('links-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const q = new URLSearchParams({ table: $('links-table').value, site: $('links-site').value, kind: $('links-kind').value, anchor: $('links-anchor').value });
  $('links-csv').href = `api/links.csv?${q}`;
  const res = await fetch(`api/links?${q}`);
  const data = await res.json();
  if (!res.ok) {
    $('links-total').textContent = data.error;
    return;
  }
  $('links-total').textContent = `${data.total} links${data.total > data.rows.length ? ` (first ${data.rows.length} shown; the CSV has all)` : ''}`;
  $('links').tBodies[0].replaceChildren(
    ...data.rows.map((r) => {
      const tr = document.createElement('tr');
      tr.append(cell(r.site), cell(r.url), cell(r.kind), cell(r.page), cell(r.anchor));
      return tr;
    }),
  );
});
