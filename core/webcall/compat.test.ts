// The drop-in promise, checked against the platform SDK's own declarations (@vapi-ai/web is a
// devDependency used for types only here): same members, same event names, same start() arguments.
import type Vapi from '@vapi-ai/web';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { harness } from './testing.js';
import type { WebCallEventName } from './types.js';
import type { WebCall } from './webcall.js';

type SdkMember = Exclude<keyof Vapi, symbol>;

describe('compatibility with the platform SDK', () => {
  it('has every public member of the SDK class', () => {
    expectTypeOf<Exclude<SdkMember, keyof WebCall>>().toEqualTypeOf<never>();
  });

  it('emits every SDK event name', () => {
    expectTypeOf<Parameters<Vapi['on']>[0]>().toExtend<WebCallEventName>();
  });

  it("accepts the SDK's start() argument types", () => {
    expectTypeOf<Parameters<Vapi['start']>>().toExtend<Parameters<WebCall['start']>>();
    expectTypeOf<Parameters<Vapi['say']>>().toEqualTypeOf<Parameters<WebCall['say']>>();
    expectTypeOf<Parameters<Vapi['setMuted']>>().toEqualTypeOf<Parameters<WebCall['setMuted']>>();
  });

  it('prepends, lists and names listeners like EventEmitter', () => {
    const { call } = harness({ record: false });
    const order: string[] = [];
    const first = () => order.push('first');
    call.on('call-end', () => order.push('second'));
    call.prependListener('call-end', first);
    call.prependOnceListener('call-end', () => order.push('zeroth'));
    call.emit('call-end');
    call.emit('call-end');
    expect(order).toEqual(['zeroth', 'first', 'second', 'first', 'second']);
    expect(call.listeners('call-end')[0]).toBe(first);
    expect(call.rawListeners('call-end')).toHaveLength(2);
    expect(call.eventNames()).toEqual(['call-end']);
  });
});
