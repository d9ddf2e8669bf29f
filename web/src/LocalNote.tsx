// The line the page adds on the local platform after Call Me or during Test in Browser: what
// really happened, where to see the call (the inspector, a terminal), and whether it is scripted.
import { inspectorCallPath } from '#core/emulator/control/paths';
import type { LocalCallInfo } from './config.js';
import { localText } from './local-text.js';

/** What a note is about: the local platform, and the call once its id is known. */
export interface LocalNoteProps {
  info: LocalCallInfo;
  kind: 'phone' | 'browser';
  callId?: string;
}

/** One status line about a call on the local platform. */
export default function LocalNote({ info, kind, callId }: LocalNoteProps) {
  const link = info.inspector && callId ? `${info.emulator}${inspectorCallPath(callId)}` : undefined;
  return (
    <p className="note" role="note">
      {kind === 'phone' ? localText.phoneCall : localText.browserCall}
      {link && (
        <>
          {' '}
          <a href={link} target="_blank" rel="noopener noreferrer">
            {localText.inspector}
          </a>
          .
        </>
      )}
      {info.watch && (
        <>
          {` ${localText.terminal} `}
          <code>{info.watch}</code>.
        </>
      )}
      {info.scripted && ` ${localText.scripted}`}
    </p>
  );
}
