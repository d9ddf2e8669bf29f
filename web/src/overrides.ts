// The assistant overrides the demo starts a browser call with (spec 7.3).
import type { Visitor } from './visitor.js';

/** Overrides built from the visitor: their first message and one system message. */
export function demoOverrides(visitor: Pick<Visitor, 'first_message' | 'system'>) {
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
