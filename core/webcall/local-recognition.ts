// The browser's own speech recognition (`SpeechRecognition`, or `webkitSpeechRecognition` in
// Chromium-based browsers) turning the customer's microphone into text for a local web call.
// Where the browser offers none, the call falls back to turns measured from the microphone level.

/** The part of the Web Speech API a local call uses. */
interface Recognition {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null;
  onend: (() => void) | null;
  onerror: ((event: { error?: string }) => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionClass = new () => Recognition;

/** The browser's speech recognition class, if it offers one. */
function recognitionClass(): RecognitionClass | undefined {
  const g = globalThis as unknown as { SpeechRecognition?: RecognitionClass; webkitSpeechRecognition?: RecognitionClass };
  return g.SpeechRecognition ?? g.webkitSpeechRecognition;
}

/** A running recognizer: stop it when the call ends; `enabled` false (muted) drops what it hears. */
export interface CustomerRecognizer {
  enabled: boolean;
  /** False once the browser's recognition failed for good (no service, no microphone, not allowed): the call falls back to the microphone level. */
  readonly working: boolean;
  stop(): void;
}

/**
 * Starts recognising the customer's speech and calls `heard` with each final phrase; undefined
 * when the browser has no speech recognition (or refuses to start it).
 */
export function recognizeCustomer(heard: (text: string) => void, lang = 'en-US'): CustomerRecognizer | undefined {
  const Class = recognitionClass();
  if (!Class) return undefined;
  let stopped = false;
  let failed = false;
  let recognition: Recognition;
  const control: CustomerRecognizer = {
    enabled: true,
    get working() {
      return !failed;
    },
    stop: () => {
      stopped = true;
      recognition.abort();
    },
  };
  try {
    recognition = new Class();
    recognition.continuous = true;
    recognition.interimResults = false;
    recognition.lang = lang;
    recognition.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        const text = result?.[0]?.transcript.trim();
        if (result?.isFinal && text && control.enabled) heard(text);
      }
    };
    // Browsers end a recognition session after silence; the call keeps listening until it ends.
    recognition.onend = () => {
      if (stopped || failed) return;
      try {
        recognition.start();
      } catch {
        failed = true;
      }
    };
    // Silence is no failure; anything else (no network service, no microphone, not allowed) is, for this call.
    recognition.onerror = (event) => {
      if (event.error !== 'no-speech' && event.error !== 'aborted') failed = true;
    };
    recognition.start();
  } catch {
    return undefined;
  }
  return control;
}
