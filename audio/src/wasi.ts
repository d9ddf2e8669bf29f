// Runs a WASI (preview 1) command module in memory: arguments in, stdout and written files out.
// Node's own `node:wasi` prints an ExperimentalWarning on Node 20 and needs real directories; the
// synthesizer only opens one input file and one output file, so a few calls are enough here.

/** What one run printed and wrote. */
export interface WasiRun {
  /** The exit code the program gave (0 when it returned from main). */
  code: number;
  stdout: string;
  stderr: string;
  /** Files the program created, by the path it opened them with. */
  files: Map<string, Uint8Array>;
}

const ERRNO_BADF = 8;
const ERRNO_NOENT = 44;
const OFLAGS_CREAT = 1;
/** The one preopened directory, `/`. */
const ROOT_FD = 3;

class Exit {
  constructor(readonly code: number) {}
}

interface OpenFile {
  name: string;
  data: Uint8Array;
  size: number;
  pos: number;
  writable: boolean;
}

/** Runs `module`'s `_start` with `args`, the files in `inputs` readable by name. */
export function runWasi(module: WebAssembly.Module, args: string[], inputs: ReadonlyMap<string, Uint8Array> = new Map()): WasiRun {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const argBytes = args.map((a) => encoder.encode(`${a}\0`));
  const out: WasiRun = { code: 0, stdout: '', stderr: '', files: new Map() };
  const open = new Map<number, OpenFile>();
  let nextFd = ROOT_FD + 1;
  // The instance's memory, known once it is instantiated (the imports are made before).
  const memory: { current?: WebAssembly.Memory } = {};
  const view = (): DataView => new DataView((memory.current as WebAssembly.Memory).buffer);
  const bytes = (): Uint8Array => new Uint8Array((memory.current as WebAssembly.Memory).buffer);
  const iovecs = (ptr: number, count: number): Array<[number, number]> => Array.from({ length: count }, (_, i) => [view().getUint32(ptr + 8 * i, true), view().getUint32(ptr + 8 * i + 4, true)]);

  const write = (file: OpenFile, chunk: Uint8Array): void => {
    const end = file.pos + chunk.length;
    if (end > file.data.length) {
      const grown = new Uint8Array(Math.max(end, file.data.length * 2));
      grown.set(file.data.subarray(0, file.size));
      file.data = grown;
    }
    file.data.set(chunk, file.pos);
    file.pos = end;
    file.size = Math.max(file.size, end);
  };

  const imports = {
    args_sizes_get: (countPtr: number, sizePtr: number): number => {
      view().setUint32(countPtr, argBytes.length, true);
      view().setUint32(
        sizePtr,
        argBytes.reduce((sum, b) => sum + b.length, 0),
        true,
      );
      return 0;
    },
    args_get: (argvPtr: number, bufPtr: number): number => {
      let at = bufPtr;
      argBytes.forEach((b, i) => {
        view().setUint32(argvPtr + 4 * i, at, true);
        bytes().set(b, at);
        at += b.length;
      });
      return 0;
    },
    // A fixed clock: the synthesizer's output never depends on the time.
    clock_time_get: (_id: number, _precision: bigint, timePtr: number): number => {
      view().setBigUint64(timePtr, 0n, true);
      return 0;
    },
    fd_close: (fd: number): number => {
      const file = open.get(fd);
      if (file?.writable) out.files.set(file.name, file.data.slice(0, file.size));
      open.delete(fd);
      return 0;
    },
    fd_fdstat_get: (fd: number, statPtr: number): number => {
      // filetype: 2 character device (stdio), 3 directory (the preopen), 4 regular file.
      view().setUint8(statPtr, fd <= 2 ? 2 : fd === ROOT_FD ? 3 : 4);
      view().setUint16(statPtr + 2, 0, true);
      view().setBigUint64(statPtr + 8, 0xffffffffn, true);
      view().setBigUint64(statPtr + 16, 0xffffffffn, true);
      return 0;
    },
    fd_fdstat_set_flags: (): number => 0,
    fd_prestat_get: (fd: number, prestatPtr: number): number => {
      if (fd !== ROOT_FD) return ERRNO_BADF;
      view().setUint8(prestatPtr, 0);
      view().setUint32(prestatPtr + 4, 1, true);
      return 0;
    },
    fd_prestat_dir_name: (fd: number, pathPtr: number): number => {
      if (fd !== ROOT_FD) return ERRNO_BADF;
      bytes()[pathPtr] = 0x2f; // '/'
      return 0;
    },
    fd_read: (fd: number, iovs: number, count: number, readPtr: number): number => {
      const file = open.get(fd);
      let total = 0;
      if (file && !file.writable) {
        for (const [ptr, len] of iovecs(iovs, count)) {
          const chunk = file.data.subarray(file.pos, Math.min(file.size, file.pos + len));
          bytes().set(chunk, ptr);
          file.pos += chunk.length;
          total += chunk.length;
          if (chunk.length < len) break;
        }
      }
      view().setUint32(readPtr, total, true);
      return file || fd === 0 ? 0 : ERRNO_BADF;
    },
    fd_seek: (fd: number, offset: bigint, whence: number, newPtr: number): number => {
      const file = open.get(fd);
      if (!file) return ERRNO_BADF;
      const base = whence === 0 ? 0 : whence === 1 ? file.pos : file.size;
      file.pos = base + Number(offset);
      view().setBigUint64(newPtr, BigInt(file.pos), true);
      return 0;
    },
    fd_write: (fd: number, iovs: number, count: number, writtenPtr: number): number => {
      let total = 0;
      for (const [ptr, len] of iovecs(iovs, count)) {
        const chunk = bytes().slice(ptr, ptr + len);
        total += len;
        if (fd === 1) out.stdout += decoder.decode(chunk);
        else if (fd === 2) out.stderr += decoder.decode(chunk);
        else {
          const file = open.get(fd);
          if (!file?.writable) return ERRNO_BADF;
          write(file, chunk);
        }
      }
      view().setUint32(writtenPtr, total, true);
      return 0;
    },
    path_open: (_dirFd: number, _dirFlags: number, pathPtr: number, pathLen: number, oflags: number, _r1: bigint, _r2: bigint, _fdFlags: number, fdPtr: number): number => {
      const name = decoder.decode(bytes().subarray(pathPtr, pathPtr + pathLen));
      const input = inputs.get(name);
      const fd = nextFd++;
      if (input) open.set(fd, { name, data: input, size: input.length, pos: 0, writable: false });
      else if (oflags & OFLAGS_CREAT) open.set(fd, { name, data: new Uint8Array(1 << 16), size: 0, pos: 0, writable: true });
      else return ERRNO_NOENT;
      view().setUint32(fdPtr, fd, true);
      return 0;
    },
    proc_exit: (code: number): never => {
      throw new Exit(code);
    },
  };

  const instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
  memory.current = instance.exports.memory as WebAssembly.Memory;
  try {
    (instance.exports._start as () => void)();
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    out.code = error.code;
  }
  return out;
}
