import { runCases } from './run-cases.ts';
const t0 = Date.now();
let last = Date.now();
const r = await runCases({ seed: Number(process.argv[2] ?? 1), cases: Number(process.argv[3] ?? 25), onFailure: (f) => console.log(JSON.stringify(f).slice(0, 700)), onCase: (n) => { console.log('case', n, Date.now() - last, 'ms'); last = Date.now(); } });
console.log('ran', r.ran, 'failures', r.failures.length, Date.now() - t0, 'ms');
process.exit(0);
