// The test helpers' waits end at their deadline and say what they waited for (a hung test names its wait).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';
import { exitOf, until, WaitTimeout, within } from './until.ts';
import { startWorker } from './workers.ts';

describe('test waits', () => {
  it('until: a condition that never holds fails at the deadline, naming it and what was last seen', async () => {
    const t0 = Date.now();
    const err = await until('the frontier to empty', () => false, 300, { everyMs: 20, seen: () => 'queued 3' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeout);
    expect((err as Error).message).toBe('waited 0.3 s for the frontier to empty (last seen: queued 3)');
    expect(Date.now() - t0).toBeLessThan(5000);
    await expect(until('a condition that holds', async () => true, 300)).resolves.toBeUndefined();
  });

  it('within: a promise that never settles fails at the deadline, naming it; one that settles passes through', async () => {
    await expect(within('the doorbell to ring', new Promise(() => {}), 200)).rejects.toThrow('waited 0.2 s for the doorbell to ring');
    await expect(within('a value', Promise.resolve(7), 200)).resolves.toBe(7);
    await expect(within('a failure', Promise.reject(new Error('boom')), 200)).rejects.toThrow('boom');
  });

  it('exitOf: a process that does not exit fails at the deadline, naming it; one that has exited answers at once', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await expect(exitOf(child, 'sleep 30 to exit', 300)).rejects.toThrow('waited 0.3 s for sleep 30 to exit');
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exitOf(child, 'the killed sleep to exit', 5000)).toBeNull();
    expect(await exitOf(child, 'an exited process', 1)).toBeNull(); // already exited: no wait for an event that came
  });

  it('a CLI command or a worker that runs past its deadline is killed and named, with what it printed', async () => {
    // `simweb serve` runs until interrupted: a command that does not end by itself
    const args = ['simweb', 'serve', '--profile', 'rossetti-like', '--seed', '1', '--scale', '0.05', '--port', '0'];
    const t0 = Date.now();
    await expect(runCli(args, { ms: 4000 })).rejects.toThrow(`waited 4 s for rdfscout ${args.join(' ')} to exit`);
    expect(Date.now() - t0).toBeLessThan(30_000); // killed at the deadline, not left running
    const worker = startWorker(['--help']);
    expect(await worker.ended('rdfscout crawl --help to exit', 60_000)).toBe(0);
  }, 60_000);
});
