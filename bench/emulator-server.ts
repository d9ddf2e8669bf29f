// Child-process entry: runs the emulator on loopback for the benchmarks, prints `{"url": ...}` on
// one line, and exits when its parent closes stdin (so a crashed bench never leaves it behind).
import { startEmulator } from 'voice-agent-core/emulator';

const portArg = process.argv.indexOf('--port');
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;
const speedArg = process.argv.indexOf('--speed');
const speed = speedArg > 0 ? Number(process.argv[speedArg + 1]) : 1;

try {
  const emulator = await startEmulator({ port, host: '127.0.0.1', speed });
  process.stdout.write(`${JSON.stringify({ url: emulator.url })}\n`);
  const stop = (): void => {
    void emulator.close().finally(() => process.exit(0));
  };
  process.stdin.on('end', stop).on('close', stop).resume();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  const code = (error as { code?: string }).code;
  process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error), code })}\n`);
  process.exit(1);
}
