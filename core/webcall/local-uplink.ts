// The microphone's audio sent to the emulator in a local call with sound: taken from the audio
// graph, averaged down to the call's rate (16 kHz) and cut into 16-bit pieces. Part of the local
// transport's lazy chunk.

/** Turns float audio at `from` Hz into 16-bit audio at `to` Hz, piece by piece (each output sample the mean of the input it covers). */
export function downsampler(from: number, to: number): (input: Float32Array) => Int16Array {
  const step = from / to;
  let carry = new Float32Array(0);
  let pos = 0;
  return (input) => {
    const data = new Float32Array(carry.length + input.length);
    data.set(carry);
    data.set(input, carry.length);
    const out = new Int16Array(Math.max(0, Math.floor((data.length - pos) / step)));
    let n = 0;
    for (; n < out.length && pos + step <= data.length; n++, pos += step) {
      const a = Math.floor(pos);
      const b = Math.max(a + 1, Math.floor(pos + step));
      let sum = 0;
      for (let i = a; i < b; i++) sum += data[i] as number;
      const v = sum / (b - a);
      out[n] = Math.round(Math.max(-1, Math.min(1, v)) * 32767);
    }
    const keep = Math.floor(pos);
    carry = data.slice(keep);
    pos -= keep;
    return out.subarray(0, n);
  };
}

/** Sends what `input` hears to `send` as 16-bit pieces at `rate` Hz until closed. */
export class MicrophoneUplink {
  // ScriptProcessorNode, though deprecated, needs no worklet module (a separate file or a blob: URL a page's CSP may refuse).
  private readonly node: ScriptProcessorNode;
  private readonly sink: GainNode;

  constructor(context: AudioContext, input: AudioNode, rate: number, send: (samples: Int16Array) => void) {
    const down = downsampler(context.sampleRate, rate);
    this.node = context.createScriptProcessor(2048, 1, 1);
    this.node.onaudioprocess = (event) => {
      const samples = down(event.inputBuffer.getChannelData(0));
      if (samples.length) send(samples);
    };
    // A processor runs only when connected on to the destination: through a silent gain.
    this.sink = context.createGain();
    this.sink.gain.value = 0;
    input.connect(this.node);
    this.node.connect(this.sink).connect(context.destination);
  }

  /** Stops sending. */
  close(): void {
    this.node.onaudioprocess = null;
    this.node.disconnect();
    this.sink.disconnect();
  }
}
