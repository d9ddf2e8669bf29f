// Every sentence the page shows, in one place (spec 2, 5, 8, 9); the ones a press of Test in
// Browser may show are in call-help.ts, loaded with that press, and the Call Me form's are in
// form-text.ts, loaded with the form (neither is in the first load).

/** Screen texts quoted from the specification. */
export const text = {
  loading: 'Loading...',
  greeting: (name: string) => `Hey ${name},`,
  title: (name: string) => `Demo for ${name}`,
  pitch: 'Meet the AI voice assistant that answers your customer calls, day and night.',
  description: 'It handles routine questions, qualifies your leads and books them in, so your team can focus on the conversations that matter. Try the version we set up for you.',
  choose: "Choose how you'd like to try it:",
  callMe: 'Call Me',
  testInBrowser: 'Test in Browser',
  connecting: 'Connecting...',
  stopCall: 'Stop Call',
  notFoundTitle: 'Page Not Found',
  notFoundText: 'The requested page does not exist.',
  goBack: 'Go back to main page',
  /** When the form's code cannot be fetched (a dropped connection; not in the spec). */
  formUnavailable: 'The form could not load. Check your connection and reload the page.',
  /** The live region of the captions (not in the spec; its lines' labels are in caption-lines.ts). */
  captionsLabel: 'Captions',
} as const;
