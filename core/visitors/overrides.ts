// The assistant overrides a visitor's demo call starts with (spec 7.3), shared by the page's
// browser call and the local Call Me webhook so the two can never disagree. Browser-safe.

/** The visitor fields the overrides are built from. */
export interface OverrideSource {
  first_message: string;
  system: string;
}

/** Overrides built from the visitor: their first message and one system message on the demo model. */
export function demoOverrides(visitor: OverrideSource) {
  return {
    firstMessage: visitor.first_message,
    model: {
      provider: 'openai' as const,
      model: 'gpt-4o-mini',
      emotionRecognitionEnabled: true,
      maxTokens: 250,
      messages: [{ role: 'system' as const, content: visitor.system }],
    },
  };
}
