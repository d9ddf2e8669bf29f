// Child-process entry: a loopback HTTP server that answers every request of a method with one
// answer recorded from the emulator (status, headers, body), after reading the whole request. It
// costs a fraction of what a client spends per request, so the client-throughput rows measure the
// clients, not the server (the emulator at 32 requests in flight is the slower side). Prints
// `{"url": ...}` on one line and exits when its parent closes stdin, like emulator-server.ts.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** One recorded answer. */
export interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const answers = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Record<string, Recorded>;
const ready = Object.fromEntries(
  Object.entries(answers).map(([method, a]) => [method, { status: a.status, headers: { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) }, body: Buffer.from(a.body) }]),
);

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const answer = ready[req.method ?? ''];
  req
    .on('data', () => undefined)
    .on('end', () => {
      if (!answer) {
        res.writeHead(405).end();
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
const stop = (): void => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.stdin.on('end', stop).on('close', stop).resume();
process.on('SIGTERM', stop);
