// **EventStream** pushes the dashboard's state over Server-Sent Events: a full snapshot on connect, then one delta
// per tick (1 Hz) with what changed; every open stream is closed on shutdown.
import type { ServerResponse } from 'node:http';

interface Client {
  res: ServerResponse;
}

/** Open SSE responses, written to together. */
export class EventStream {
  readonly #clients = new Set<Client>();

  get size(): number {
    return this.#clients.size;
  }

  /** Starts a stream on `res` and sends `snapshot` as its first event. */
  open(res: ServerResponse, snapshot: unknown): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no', // behind nginx: do not buffer the stream
    });
    const client = { res };
    this.#clients.add(client);
    res.on('close', () => this.#clients.delete(client));
    res.write('retry: 2000\n\n');
    send(res, 'snapshot', snapshot);
  }

  /** Sends one event to every open stream (a slow client whose buffer is full skips it: the next delta has the status). */
  broadcast(event: string, data: unknown): void {
    if (this.#clients.size === 0) return;
    const text = frame(event, data);
    for (const c of this.#clients) {
      if (c.res.writableNeedDrain) continue;
      c.res.write(text);
    }
  }

  /** Ends every stream (the page's EventSource sees the server go and reconnects later, if it comes back). */
  close(): void {
    for (const c of this.#clients) {
      send(c.res, 'bye', {});
      c.res.end();
    }
    this.#clients.clear();
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(frame(event, data));
}
