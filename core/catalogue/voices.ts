// Catalogue entries for voices and voice providers: the voice library, provider workflows,
// voices and resources, and voice cloning. Spread into the one catalogue (catalogue.ts).
import { get, patch, post, del, shape } from './define.js';
import type { Upload } from './define.js';
import type * as M from './models.js';
import type * as N from './models-more.js';
import { PAGED, PLAIN } from './query-sets.js';

type Any = M.Open;

/** Voice and provider resources, grouped as in the path. */
export const voices = {
  voiceLibrary: {
    get: get({ path: '/voice-library/{provider}', query: ['page', 'keyword', 'language', 'accent', 'gender', ...PLAIN], summary: "List a provider's voices", shape: shape<never, M.LibraryVoice[]>() }),
    accents: get({ path: '/voice-library/{provider}/accents', summary: "List a provider's accents (one library voice per accent)", shape: shape<never, M.LibraryVoice[]>() }),
    sync: post({ path: '/voice-library/sync/{provider}', summary: "Sync a provider's voices", shape: shape<Any, Any>() }),
    syncAll: post({ path: '/voice-library/sync', summary: 'Sync the default voices of every provider', shape: shape<Any, M.LibraryVoice[]>() }),
    createSesameVoice: post({ path: '/voice-library/create-sesame-voice', summary: 'Create a Sesame voice', shape: shape<Any, Any>() }),
  },
  provider: {
    workflows: get({ path: '/{provider}/workflows', query: ['locationId'], summary: "List a provider's workflows", shape: shape<never, Any>() }),
    workflowHooks: get({ path: '/{provider}/workflows/{workflowId}/hooks', summary: "List a provider workflow's hooks", shape: shape<never, Any>() }),
    locations: get({ path: '/{provider}/locations', summary: "List a provider's locations", shape: shape<never, Any>() }),
    voicesSearch: get({ path: '/{provider}/voices/search', deprecated: true, query: ['name'], summary: "Search a provider's voices (old path)", shape: shape<never, M.LibraryVoice[]>() }),
    voiceSearch: get({ path: '/{provider}/voice/search', query: ['name'], summary: "Search a provider's voices", shape: shape<never, M.LibraryVoice[]>() }),
    voicesAdd: post({ path: '/{provider}/voices/add', deprecated: true, summary: 'Add a provider voice to your library (old path)', shape: shape<Any, M.LibraryVoice>() }),
    voiceAdd: post({ path: '/{provider}/voice/add', summary: 'Add a provider voice to your library', shape: shape<Any, M.LibraryVoice>() }),
    resource: {
      create: post({
        path: '/provider/{provider}/{resourceName}',
        body: 'none',
        summary: 'Create a resource at a voice provider (e.g. a pronunciation dictionary)',
        shape: shape<never, N.ProviderResource>(),
      }),
      list: get({
        path: '/provider/{provider}/{resourceName}',
        list: 'paginated',
        query: ['id', 'resourceId', 'sortBy', ...PAGED],
        summary: 'List the resources of a provider',
        shape: shape<never, M.Paginated<N.ProviderResource>>(),
      }),
      get: get({ path: '/provider/{provider}/{resourceName}/{id}', summary: 'Get a provider resource', shape: shape<never, N.ProviderResource>() }),
      update: patch({ path: '/provider/{provider}/{resourceName}/{id}', body: 'none', summary: 'Update a provider resource', shape: shape<never, N.ProviderResource>() }),
      delete: del({ path: '/provider/{provider}/{resourceName}/{id}', summary: 'Delete a provider resource', shape: shape<never, N.ProviderResource>() }),
    },
  },
  elevenLabs: {
    clone: post({ path: '/11labs/voice/clone', body: 'multipart', fileField: 'files', summary: 'Clone a voice from audio samples', shape: shape<Upload, unknown>() }),
  },
} as const;
