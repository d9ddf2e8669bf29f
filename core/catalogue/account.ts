// Catalogue entries for the account: organisations and their members, API tokens, provider
// credentials and templates. Spread into the one catalogue (catalogue.ts); nothing else lists them.
import { del, get, patch, post, shape } from './define.js';
import type * as M from './models.js';
import { PLAIN } from './query-sets.js';

type Any = M.Open;

/** The account's resources, grouped as in the path. */
export const account = {
  org: {
    create: post({ path: '/org', summary: 'Create an organisation', shape: shape<Any, M.Org>() }),
    list: get({ path: '/org', list: 'plain', summary: 'List your organisations', shape: shape<never, M.Org[]>() }),
    get: get({ path: '/org/{id}', summary: 'Get an organisation', shape: shape<never, M.Org>() }),
    update: patch({ path: '/org/{id}', summary: 'Update an organisation', shape: shape<Any, M.Org>() }),
    delete: del({ path: '/org/{id}', summary: 'Delete an organisation', shape: shape<never, M.Org>() }),
    users: get({ path: '/org/{id}/user', summary: 'List the users of an organisation', shape: shape<never, M.User[]>() }),
    leave: del({ path: '/org/{id}/leave', summary: 'Leave an organisation', shape: shape<never, unknown>() }),
    removeMember: del({ path: '/org/{id}/member/{memberId}/leave', summary: 'Remove a member from an organisation', shape: shape<never, unknown>() }),
    invite: post({ path: '/org/{id}/invite', summary: 'Invite users to an organisation', shape: shape<{ emails: string[]; role: string } & Any, unknown>() }),
    updateRole: patch({ path: '/org/{id}/role', summary: "Change a user's role", shape: shape<{ userId: string; role: string } & Any, unknown>() }),
    auth: get({ path: '/org/{id}/auth', summary: 'Get an auth token for an organisation', shape: shape<never, { token: string } & Any>() }),
  },
  token: {
    create: post({ path: '/token', summary: 'Create an API token', shape: shape<Any, M.Token>() }),
    list: get({ path: '/token', list: 'plain', query: PLAIN, summary: 'List API tokens', shape: shape<never, M.Token[]>() }),
    get: get({ path: '/token/{id}', summary: 'Get an API token', shape: shape<never, M.Token>() }),
    update: patch({ path: '/token/{id}', summary: 'Update an API token', shape: shape<Any, M.Token>() }),
    delete: del({ path: '/token/{id}', summary: 'Delete an API token', shape: shape<never, M.Token>() }),
  },
  credential: {
    create: post({ path: '/credential', summary: 'Create a provider credential', shape: shape<{ provider: string } & Any, M.Credential>() }),
    list: get({ path: '/credential', list: 'plain', query: PLAIN, summary: 'List credentials', shape: shape<never, M.Credential[]>() }),
    get: get({ path: '/credential/{id}', summary: 'Get a credential', shape: shape<never, M.Credential>() }),
    update: patch({ path: '/credential/{id}', summary: 'Update a credential', shape: shape<Any, M.Credential>() }),
    delete: del({ path: '/credential/{id}', summary: 'Delete a credential', shape: shape<never, M.Credential>() }),
    session: post({ path: '/credential/session', summary: 'Start a credential session', shape: shape<Any, Any>() }),
    webhook: post({ path: '/credential/webhook', auth: 'none', summary: 'Receive a credential webhook (no auth)', shape: shape<Any, unknown>() }),
    trigger: post({ path: '/credential/trigger', summary: 'Trigger a credential action', shape: shape<Any, Any>() }),
  },
  template: {
    create: post({ path: '/template', summary: 'Create a template', shape: shape<Any, M.Template>() }),
    list: get({ path: '/template', list: 'plain', query: ['collectionId', 'visibility', 'provider', ...PLAIN], summary: 'List templates', shape: shape<never, M.Template[]>() }),
    pinned: get({ path: '/template/pinned', summary: 'List pinned templates', shape: shape<never, M.Template[]>() }),
    get: get({ path: '/template/{id}', summary: 'Get a template', shape: shape<never, M.Template>() }),
    update: patch({ path: '/template/{id}', summary: 'Update a template', shape: shape<Any, M.Template>() }),
    delete: del({ path: '/template/{id}', summary: 'Delete a template', shape: shape<never, M.Template>() }),
  },
} as const;
