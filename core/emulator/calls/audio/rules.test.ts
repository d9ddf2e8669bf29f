// The timing rules as pure decisions: the endpointing wait a transcript gets, the turns a line
// with pauses makes, and what speech over the assistant does (stopSpeakingPlan), with the
// platform's defaults when the assistant sets nothing.
import { describe, expect, it } from 'vitest';
import { keypadPlanOf, normalise, startPlanOf, stopPlanOf } from './plans.js';
import { endpointingOf, stopDecision, turnsOf } from './rules.js';
import { fragmentsOf, lineProblem, lineText } from './utterance.js';

const words = (...spec: [string, number, number][]) => spec.map(([word, start, end]) => ({ word, start, end }));

describe('plans', () => {
  it("fill in the platform's defaults", () => {
    expect(startPlanOf(undefined)).toMatchObject({ waitSeconds: 0.4, onPunctuationSeconds: 0.1, onNoPunctuationSeconds: 1.5, onNumberSeconds: 0.5, rules: [], smart: false });
    expect(stopPlanOf({})).toMatchObject({ numWords: 0, voiceSeconds: 0.2, backoffSeconds: 1 });
    expect(stopPlanOf({}).acknowledgementPhrases).toContain('yeah');
    expect(stopPlanOf({}).interruptionPhrases).toContain('stop');
    expect(keypadPlanOf({})).toEqual({ enabled: false, timeoutSeconds: 2, delimiters: '#' });
  });

  it('compare phrases without case, apostrophes or punctuation', () => {
    expect(normalise("I'm listening!")).toBe('im listening');
    expect(normalise('Uh-huh.')).toBe('uh-huh');
    expect(stopPlanOf({ stopSpeakingPlan: { acknowledgementPhrases: ['Got it!'] } }).acknowledgementPhrases).toEqual(['got it']);
  });
});

describe('endpointingOf', () => {
  const plan = startPlanOf({});
  it("waits by the transcript's last character: a number, punctuation, or none", () => {
    expect(endpointingOf('My code is 4 1 5', '', plan)).toEqual({ seconds: 0.5, rule: 'onNumberSeconds' });
    expect(endpointingOf('My code is 4 1 5.', '', plan)).toEqual({ seconds: 0.5, rule: 'onNumberSeconds' });
    expect(endpointingOf('Tuesday, please.', '', plan)).toEqual({ seconds: 0.1, rule: 'onPunctuationSeconds' });
    expect(endpointingOf('Is that right?', '', plan)).toEqual({ seconds: 0.1, rule: 'onPunctuationSeconds' });
    expect(endpointingOf('I would like to', '', plan)).toEqual({ seconds: 1.5, rule: 'onNoPunctuationSeconds' });
  });

  it('tries customEndpointingRules first, in order, on the customer, the assistant or both', () => {
    const rules = startPlanOf({
      startSpeakingPlan: {
        customEndpointingRules: [
          { type: 'both', assistantRegex: 'account', customerRegex: '^\\d', timeoutSeconds: 4 },
          { type: 'assistant', regex: 'ACCOUNT NUMBER', regexOptions: [{ type: 'ignore-case', enabled: true }], timeoutSeconds: 3 },
          { type: 'customer', regex: 'um', regexOptions: [{ type: 'whole-word', enabled: true }], timeoutSeconds: 2 },
        ],
      },
    });
    expect(endpointingOf('4 1 5', 'What is your account number?', rules)).toEqual({ seconds: 4, rule: 'customEndpointingRules[0]' });
    expect(endpointingOf('it is', 'What is your account number?', rules)).toEqual({ seconds: 3, rule: 'customEndpointingRules[1]' });
    expect(endpointingOf('well um', 'Hello', rules)).toEqual({ seconds: 2, rule: 'customEndpointingRules[2]' });
    expect(endpointingOf('umbrella.', 'Hello', rules).rule).toBe('onPunctuationSeconds');
  });
});

describe('turnsOf', () => {
  const said = words(['Book', 0.2, 0.5], ['a', 0.5, 0.6], ['table', 0.6, 1.0], ['for', 1.8, 2.0], ['two.', 2.0, 2.4]);
  const spans = [
    { start: 0.18, end: 1.05 },
    { start: 1.78, end: 2.45 },
  ];
  it('keeps speech that starts again within the endpointing wait in one turn', async () => {
    const [one, ...rest] = await turnsOf(said, spans, '', startPlanOf({}));
    expect(rest).toEqual([]);
    expect(one).toMatchObject({ text: 'Book a table for two.', speechStart: 0.18, speechEnd: 2.45, rule: 'onPunctuationSeconds' });
    expect(one!.endpointAt).toBeCloseTo(2.55, 9);
  });

  it('makes two turns when the pause outlasts the wait', async () => {
    const plan = startPlanOf({ startSpeakingPlan: { transcriptionEndpointingPlan: { onNoPunctuationSeconds: 0.4 } } });
    expect((await turnsOf(said, spans, '', plan)).map((t) => [t.text, t.speechEnd, t.rule])).toEqual([
      ['Book a table', 1.05, 'onNoPunctuationSeconds'],
      ['for two.', 2.45, 'onPunctuationSeconds'],
    ]);
  });

  it('gives no turn when the detector heard nothing, nor for noise it took for speech', async () => {
    expect(await turnsOf(said, [], '', startPlanOf({}))).toEqual([]);
    expect(await turnsOf([], [{ start: 0, end: 1 }], '', startPlanOf({}))).toEqual([]);
  });
});

describe('stopDecision', () => {
  const over = { text: 'No, I meant Friday.', words: words(['No,', 1, 1.2], ['I', 1.3, 1.4], ['meant', 1.4, 1.7], ['Friday.', 1.7, 2.2]), speech: { start: 0.98, end: 2.25 } };
  it('numWords 0: stops voiceSeconds into the detected speech, or at an interruption phrase if sooner', () => {
    expect(stopDecision(over, stopPlanOf({ stopSpeakingPlan: { voiceSeconds: 0.5, interruptionPhrases: [] } }), true)).toEqual({ kind: 'cut', at: 1.48, rule: 'voiceSeconds' });
    expect(stopDecision(over, stopPlanOf({ stopSpeakingPlan: { voiceSeconds: 0.5 } }), true)).toEqual({ kind: 'cut', at: 1.2, rule: 'interruptionPhrases' });
  });

  it('numWords N: stops at the end of the Nth word; fewer words talk over nothing', () => {
    const plan = stopPlanOf({ stopSpeakingPlan: { numWords: 3, interruptionPhrases: [] } });
    expect(stopDecision(over, plan, true)).toEqual({ kind: 'cut', at: 1.7, rule: 'numWords' });
    expect(stopDecision({ ...over, words: over.words.slice(0, 2) }, plan, true)).toMatchObject({ kind: 'over' });
  });

  it('an acknowledgement never stops it; the first message only when it may be cut', () => {
    const yeah = { text: 'Yeah.', words: words(['Yeah.', 1, 1.3]), speech: { start: 1, end: 1.3 } };
    expect(stopDecision(yeah, stopPlanOf({}), true)).toEqual({ kind: 'acknowledgement' });
    expect(stopDecision(over, stopPlanOf({}), false)).toEqual({ kind: 'over', rule: 'firstMessageInterruptionsEnabled is off' });
  });

  it('speech shorter than voiceSeconds (a cough) does not stop it', () => {
    expect(stopDecision({ text: 'hm', words: words(['hm', 1, 1.1]), speech: { start: 1, end: 1.1 } }, stopPlanOf({ stopSpeakingPlan: { voiceSeconds: 0.3 } }), true)).toMatchObject({ kind: 'over' });
  });
});

describe('lines with pauses', () => {
  it('split at [Ns] marks; a list mixes text and seconds', () => {
    expect(fragmentsOf("I'd like [0.8s] a table [2 s] please")).toEqual(["I'd like", 0.8, 'a table', 2, 'please']);
    expect(fragmentsOf(['Tuesday', 1.5, 'at seven'])).toEqual(['Tuesday', 1.5, 'at seven']);
    expect(lineText("I'd like [0.8s] a table")).toBe("I'd like a table");
    expect(lineProblem('hello [0.5s] there')).toBeUndefined();
    expect(lineProblem('[3s]')).toMatch(/says nothing/);
    expect(lineProblem(['a', 61])).toMatch(/0 to 60 seconds/);
  });
});
