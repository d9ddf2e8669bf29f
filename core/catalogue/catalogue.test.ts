import { describe, expect, it } from 'vitest';
import { catalogue, flatten, pathParamNames } from './index.js';
import type { CatalogueKey } from './index.js';

// Spec section 7 "REST API", written out one operation a line. Path values are
// normalised to `{}` so the names the catalogue picks do not matter here.
const SPEC = `
POST /call
GET /call
GET /call/{}
PATCH /call/{}
DELETE /call/{}
POST /call/phone
POST /call/web
GET /v2/call/export
GET /v2/call
GET /v2/call/metadata
GET /v2/assistant
GET /v2/phone-number
GET /chat
POST /chat
GET /chat/{}
DELETE /chat/{}
POST /chat/responses
POST /chat/web
POST /chat/web/responses
POST /campaign
GET /campaign
GET /campaign/paginated
GET /campaign/{}
PATCH /campaign/{}
DELETE /campaign/{}
POST /session
GET /session
GET /session/{}
PATCH /session/{}
DELETE /session/{}
POST /support/ticket
POST /assistant
GET /assistant
GET /assistant/{}
PATCH /assistant/{}
PUT /assistant/{}
DELETE /assistant/{}
GET /assistant/{}/version
POST /phone-number/import/twilio
POST /phone-number/import/vonage
POST /phone-number
GET /phone-number
GET /phone-number/{}
PATCH /phone-number/{}
DELETE /phone-number/{}
POST /tool
GET /tool
GET /tool/{}
PATCH /tool/{}
DELETE /tool/{}
POST /file/upload
POST /file
GET /file
GET /file/{}
PATCH /file/{}
DELETE /file/{}
POST /knowledge-base
GET /knowledge-base
GET /knowledge-base/{}
PATCH /knowledge-base/{}
DELETE /knowledge-base/{}
GET /workflow
POST /workflow
GET /workflow/{}
DELETE /workflow/{}
PATCH /workflow/{}
POST /workflow/generate
POST /squad
GET /squad
GET /squad/{}
PATCH /squad/{}
DELETE /squad/{}
GET /test-suite
POST /test-suite
GET /test-suite/{}
PATCH /test-suite/{}
DELETE /test-suite/{}
GET /test-suite/{}/test
POST /test-suite/{}/test
GET /test-suite/{}/test/{}
PATCH /test-suite/{}/test/{}
DELETE /test-suite/{}/test/{}
GET /test-suite/{}/run
POST /test-suite/{}/run
GET /test-suite/{}/run/{}
PATCH /test-suite/{}/run/{}
DELETE /test-suite/{}/run/{}
POST /analytics
GET /log
DELETE /log
GET /logs
DELETE /logs
POST /org
GET /org
GET /org/{}
PATCH /org/{}
DELETE /org/{}
GET /org/{}/user
DELETE /org/{}/leave
DELETE /org/{}/member/{}/leave
POST /org/{}/invite
PATCH /org/{}/role
GET /org/{}/auth
POST /token
GET /token
GET /token/{}
PATCH /token/{}
DELETE /token/{}
POST /credential
GET /credential
GET /credential/{}
PATCH /credential/{}
DELETE /credential/{}
POST /credential/session
POST /credential/webhook
POST /credential/trigger
POST /template
GET /template
GET /template/pinned
GET /template/{}
PATCH /template/{}
DELETE /template/{}
GET /voice-library/{}
GET /voice-library/{}/accents
POST /voice-library/sync/{}
POST /voice-library/sync
POST /voice-library/create-sesame-voice
GET /{}/workflows
GET /{}/workflows/{}/hooks
GET /{}/locations
GET /{}/voices/search
GET /{}/voice/search
POST /{}/voices/add
POST /{}/voice/add
POST /11labs/voice/clone
`
  .trim()
  .split('\n');

// The operations the platform publishes beyond the spec (its OpenAPI document), one a line.
const PUBLISHED = `
GET /call/{}/mono-recording
GET /call/{}/stereo-recording
GET /call/{}/video-recording
GET /call/{}/customer-recording
GET /call/{}/assistant-recording
GET /call/{}/pcap
GET /call/{}/call-logs
POST /v2/campaign
GET /v2/campaign
GET /v2/campaign/{}
PATCH /v2/campaign/{}
DELETE /v2/campaign/{}
GET /v2/campaign/{}/contacts
POST /v2/knowledge-base
GET /v2/knowledge-base
GET /v2/knowledge-base/{}/file
POST /v2/knowledge-base/{}/file
DELETE /v2/knowledge-base/{}/file/{}
POST /v2/knowledge-base/{}/file/{}/retry
PATCH /v2/knowledge-base/{}
GET /v2/knowledge-base/{}
DELETE /v2/knowledge-base/{}
GET /structured-output
POST /structured-output
GET /structured-output/{}
PATCH /structured-output/{}
DELETE /structured-output/{}
POST /structured-output/run
POST /eval/simulation/personality
GET /eval/simulation/personality
GET /eval/simulation/personality/{}
PATCH /eval/simulation/personality/{}
DELETE /eval/simulation/personality/{}
POST /eval/simulation/scenario
GET /eval/simulation/scenario
GET /eval/simulation/scenario/{}
PATCH /eval/simulation/scenario/{}
DELETE /eval/simulation/scenario/{}
POST /eval/simulation/run
GET /eval/simulation/run
GET /eval/simulation/run/{}
PATCH /eval/simulation/run/{}
GET /eval/simulation/run/{}/item
GET /eval/simulation/run/{}/item/{}
PATCH /eval/simulation/run/{}/item/{}
POST /eval/simulation/run/{}/item/{}/generate
POST /eval/simulation/suite
GET /eval/simulation/suite
GET /eval/simulation/suite/{}
PATCH /eval/simulation/suite/{}
DELETE /eval/simulation/suite/{}
POST /eval/simulation/scenario/generate
POST /eval/simulation
GET /eval/simulation
GET /eval/simulation/{}
PATCH /eval/simulation/{}
DELETE /eval/simulation/{}
GET /eval/simulation/concurrency
POST /reporting/insight
GET /reporting/insight
PATCH /reporting/insight/{}
GET /reporting/insight/{}
DELETE /reporting/insight/{}
POST /reporting/insight/{}/run
POST /reporting/insight/preview
POST /reporting/board
GET /reporting/board
GET /reporting/board/default/metrics-overview
PATCH /reporting/board/{}
GET /reporting/board/{}
DELETE /reporting/board/{}
POST /eval
GET /eval
PATCH /eval/{}
DELETE /eval/{}
GET /eval/{}
DELETE /eval/run/{}
GET /eval/run/{}
POST /eval/run
GET /eval/run
GET /observability/scorecard/{}
PATCH /observability/scorecard/{}
DELETE /observability/scorecard/{}
GET /observability/scorecard
POST /observability/scorecard
POST /provider/{}/{}
GET /provider/{}/{}
GET /provider/{}/{}/{}
DELETE /provider/{}/{}/{}
PATCH /provider/{}/{}/{}
POST /tool/code/test
GET /monitoring/issue
GET /monitoring/issue/{}
PATCH /monitoring/issue/{}
GET /monitoring/policy
POST /monitoring/policy
GET /monitoring/policy/{}
PATCH /monitoring/policy/{}
DELETE /monitoring/policy/{}
POST /chat/completions
GET /metrics
`
  .trim()
  .split('\n');

const ALL = [...SPEC, ...PUBLISHED];

const entries = flatten(catalogue);
const key = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

describe('catalogue', () => {
  it('lists exactly the 236 published operations (135 in the spec, 101 more), each once', () => {
    expect(SPEC).toHaveLength(135);
    expect(PUBLISHED).toHaveLength(101);
    expect(new Set(ALL).size).toBe(236);
    const ours = entries.map((e) => key(e.op.method, e.op.path));
    const dupes = ours.filter((k, i) => ours.indexOf(k) !== i);
    expect(dupes).toEqual([]);
    expect(ours.filter((k) => !ALL.includes(k))).toEqual([]); // extra
    expect(ALL.filter((k) => !ours.includes(k))).toEqual([]); // missing
    expect(ours).toHaveLength(236);
  });

  it('secures every operation but the credential webhook', () => {
    const open = entries.filter((e) => e.op.auth === 'none').map((e) => key(e.op.method, e.op.path));
    expect(open).toEqual(['POST /credential/webhook']);
  });

  it('sends multipart only for uploads and no body for GET and DELETE', () => {
    const multipart = entries.filter((e) => e.op.body === 'multipart').map((e) => key(e.op.method, e.op.path));
    expect(multipart.sort()).toEqual(['POST /11labs/voice/clone', 'POST /file', 'POST /file/upload']);
    // The published document gives these no request body (the provider-resource ones take the
    // raw content its header names; the rest are commands on an existing object).
    const bodiless = [
      'PATCH /eval/simulation/run/{}',
      'PATCH /eval/simulation/run/{}/item/{}',
      'PATCH /provider/{}/{}/{}',
      'POST /eval/simulation/run/{}/item/{}/generate',
      'POST /provider/{}/{}',
      'POST /tool/code/test',
      'POST /v2/knowledge-base/{}/file/{}/retry',
    ];
    for (const e of entries) {
      const k = key(e.op.method, e.op.path);
      if (e.op.method === 'GET' || e.op.method === 'DELETE' || bodiless.includes(k)) expect(e.op.body, k).toBe('none');
      else expect(e.op.body, k).not.toBe('none');
    }
  });

  it('reads the recordings, the packet capture and the log file as bytes, everything else as JSON', () => {
    const binary = entries
      .filter((e) => e.op.response === 'binary')
      .map((e) => key(e.op.method, e.op.path))
      .sort();
    expect(binary).toEqual(
      ['mono', 'stereo', 'video', 'customer', 'assistant']
        .map((k) => `GET /call/{}/${k}-recording`)
        .concat('GET /call/{}/pcap', 'GET /call/{}/call-logs')
        .sort(),
    );
  });

  it('marks the paginated lists and the plain ones with their paging parameters', () => {
    for (const e of entries) {
      const k = key(e.op.method, e.op.path);
      if (e.op.list === 'paginated') expect(e.op.query, k).toEqual(expect.arrayContaining(['page', 'limit']));
      if (e.op.list === 'plain' && e.op.query.length > 0) expect(e.op.query, k).toContain('limit');
    }
    const paginated = entries.filter((e) => e.op.list === 'paginated').map((e) => e.op.path);
    expect(paginated).toEqual(expect.arrayContaining(['/chat', '/session', '/campaign', '/campaign/paginated', '/v2/call', '/v2/assistant', '/v2/phone-number']));
    // Beyond the spec, the published document answers these lists with a page object...
    expect(paginated).toEqual(
      expect.arrayContaining([
        '/v2/campaign',
        '/v2/campaign/{id}/contacts',
        '/structured-output',
        '/eval',
        '/eval/run',
        '/eval/simulation/run',
        '/reporting/insight',
        '/reporting/board',
        '/observability/scorecard',
        '/provider/{provider}/{resourceName}',
      ]),
    );
    // ...and these with a bare array, though several take `page`.
    const plain = entries.filter((e) => e.op.list === 'plain').map((e) => e.op.path);
    expect(plain).toEqual(
      expect.arrayContaining([
        '/v2/knowledge-base',
        '/v2/knowledge-base/{id}/file',
        '/eval/simulation',
        '/eval/simulation/personality',
        '/eval/simulation/scenario',
        '/eval/simulation/suite',
        '/eval/simulation/run/{id}/item',
        '/monitoring/issue',
        '/monitoring/policy',
      ]),
    );
  });

  it('flags the deprecated operations', () => {
    const dep = entries
      .filter((e) => e.op.deprecated)
      .map((e) => key(e.op.method, e.op.path))
      .sort();
    expect(dep).toEqual(
      [
        'DELETE /logs',
        'GET /logs',
        'GET /{}/voices/search',
        'POST /call/phone',
        'POST /file/upload',
        'POST /phone-number/import/twilio',
        'POST /phone-number/import/vonage',
        'POST /{}/voices/add',
        'GET /metrics',
      ].sort(),
    );
  });

  it('gives every operation a unique command and a summary', () => {
    const commands = entries.map((e) => [...e.resource, e.action].join(' '));
    expect(new Set(commands).size).toBe(commands.length);
    for (const e of entries) expect(e.op.summary.length).toBeGreaterThan(5);
    expect(commands).toContain('test-suite run create');
    expect(commands).toContain('phone-number import-twilio');
    expect(commands).toEqual(expect.arrayContaining(['structured-output list', 'eval simulation suite create', 'call recording get', 'v2 campaign contacts', 'chat completions']));
    expect(pathParamNames('/test-suite/{testSuiteId}/run/{id}')).toEqual(['testSuiteId', 'id']);
  });

  it('names every operation by a CatalogueKey, and nothing else (misspelt keys fail the typecheck)', () => {
    const keys: CatalogueKey[] = ['call.create', 'v2.call.export', 'eval.simulation.run.item.suggest'];
    // @ts-expect-error a misspelt operation
    const misspelt: CatalogueKey = 'call.creat';
    // @ts-expect-error a group, not an operation
    const group: CatalogueKey = 'call.recording';
    const joined = new Set(entries.map((e) => e.keys.join('.')));
    for (const key of keys) expect(joined.has(key)).toBe(true);
    expect([misspelt, group].filter((k) => joined.has(k))).toEqual([]);
  });
});
