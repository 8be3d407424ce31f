// **Standard output for read commands**: back-pressure, and a quiet end when the reader goes away (`docs | head`).
import type { Writable } from 'node:stream';

/** The reader of our output closed it (EPIPE): the command stops quietly, as Unix tools do. */
export class OutputClosedError extends Error {
  constructor() {
    super('standard output was closed by its reader');
    this.name = 'OutputClosedError';
  }
}

/** Whether `err` says that the reader of a pipe went away (EPIPE), directly or wrapped. */
export function isOutputClosed(err: unknown): boolean {
  if (err instanceof OutputClosedError) return true;
  const e = err as { code?: string; cause?: unknown } | null;
  return e?.code === 'EPIPE' || e?.code === 'ERR_STREAM_DESTROYED' || (e?.cause !== undefined && e.cause !== err && isOutputClosed(e.cause));
}

/**
 * Writes `text` to `out` and waits while it is full. Rejects with OutputClosedError once the reader has closed the
 * pipe, so a command stops reading its store instead of writing into the void.
 */
export async function writeOut(text: string, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  const w = out as Writable;
  if (w.destroyed || w.writableEnded) throw new OutputClosedError();
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const cleanup = () => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(isOutputClosed(err) ? new OutputClosedError() : err);
    };
    const onClose = () => {
      cleanup();
      reject(new OutputClosedError());
    };
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

/**
 * Keeps an EPIPE on `out` (emitted after a write returned) from crashing the process: the next `writeOut` rejects
 * instead. Other errors still surface. Installed once by the CLI.
 */
export function quietOnEpipe(out: NodeJS.WritableStream = process.stdout): void {
  out.on('error', (err: unknown) => {
    if (isOutputClosed(err)) return;
    throw err;
  });
}
