import { describe, expect, it } from 'vitest';
import { callText as text, notConfiguredText } from './call-help.js';

describe('notConfiguredText', () => {
  it('gives the developer previewing on loopback the setup instructions', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) expect(notConfiguredText(host)).toBe(text.notConfigured);
    expect(text.notConfigured).toContain('VOICE_PUBLIC_KEY');
  });

  it('never shows a prospect on a hosted page CLI instructions', () => {
    const shown = notConfiguredText('demo.example');
    expect(shown).toBe(text.notAvailable);
    expect(shown).not.toMatch(/VOICE_|voice demo|--/);
  });
});
