// Every sentence the page shows, in one place (spec 2, 5, 8, 9).

/** Screen texts quoted from the specification. */
export const text = {
  loading: 'Loading...',
  greeting: (name: string) => `Hey ${name},`,
  title: (name: string) => `Demo for ${name}`,
  pitch: 'Meet the AI voice assistant that answers your customer calls, day and night.',
  description:
    'It handles routine questions, qualifies your leads and books them in, so your team can focus on the conversations that matter. Try the version we set up for you.',
  choose: "Choose how you'd like to try it:",
  callMe: 'Call Me',
  callNow: 'Call Now',
  initiating: 'Initiating Call...',
  testInBrowser: 'Test in Browser',
  connecting: 'Connecting...',
  stopCall: 'Stop Call',
  phoneLabel: 'Your phone number',
  emptyPhone: 'Please enter a valid phone number',
  callFailed: 'Failed to initiate call. Please try again.',
  callSuccess: "Great! You'll receive a call within the next 15 seconds.",
  microphone: 'Microphone access is required. Please allow microphone permissions in your browser and try again.',
  notConfigured:
    'Test in Browser is not configured: set a public key and an assistant id (VOICE_PUBLIC_KEY and VOICE_ASSISTANT_ID, or voice demo --public-key and --assistant-id), then restart voice demo.',
  /** What a prospect sees on a hosted page built without browser-call settings. */
  notAvailable: 'Test in Browser is not available on this page yet. Please try Call Me instead.',
  notFoundTitle: 'Page Not Found',
  notFoundText: 'The requested page does not exist.',
  goBack: 'Go back to main page',
  /** Captions of a live call (not in the spec: labels of its lines). */
  captionsLabel: 'Captions',
  captionAssistant: 'Assistant:',
  captionYou: 'You:',
} as const;

/** Hosts a developer previews on (`voice demo`); anywhere else the reader is a prospect. */
const PREVIEW_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The text for a browser call that is not configured: setup instructions for the developer
 * previewing locally, a plain sentence for a prospect on a hosted page (never CLI instructions).
 */
export function notConfiguredText(hostname: string): string {
  return PREVIEW_HOSTS.has(hostname) ? text.notConfigured : text.notAvailable;
}
