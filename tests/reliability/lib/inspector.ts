import WebSocket from 'ws';

/** One Chrome DevTools Protocol call to another Node process started with `--inspect=127.0.0.1:<port>`. */
export async function inspectorCall<T>(port: number, method: string, params: object = {}, timeoutMs = 10_000): Promise<T> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(url);
  try {
    return await new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector on ${port}: no answer to ${method} in ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method, params })));
      socket.on('message', (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: T; error?: { message: string } };
        if (message.id !== 1) return;
        clearTimeout(timer);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result as T);
      });
    });
  } finally {
    socket.close();
  }
}

export interface RetainedMemory {
  /** MiB, after a full garbage collection: what the process really holds. */
  rss: number;
  heapUsed: number;
  external: number;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** A full GC in the process, then its memory as process.memoryUsage() sees it. */
export async function retainedMemory(port: number): Promise<RetainedMemory> {
  await inspectorCall(port, 'HeapProfiler.collectGarbage');
  const { result } = await inspectorCall<{ result: { value: string } }>(port, 'Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  });
  const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
  return { rss: mib(usage.rss), heapUsed: mib(usage.heapUsed), external: mib(usage.external) };
}
