// Captions of a live call, loaded with the first call (nothing of them in the first load): the
// lines of the call's `transcript` messages, the prospect's labelled. They live while the call
// does (App.tsx unmounts this when the call ends, which clears them); the live region around them
// is in App.tsx, so it exists before any line and screen readers announce each one.
import { useEffect, useState } from 'react';
import type { WebCall } from 'voice-agent-core/webcall/webcall';
import { addCaption, CAPTION_LABELS, type Caption } from './caption-lines.js';

/** The last few lines of the conversation on `client`. */
export default function Captions({ client }: { client: WebCall }) {
  const [lines, setLines] = useState<Caption[]>([]);
  useEffect(() => {
    const listener = (message: unknown) => setLines((current) => addCaption(current, message));
    client.on('message', listener);
    return () => void client.off('message', listener);
  }, [client]);
  return (
    <>
      {lines.map((line, i) => (
        <p key={i} className={line.final ? line.role : `${line.role} partial`}>
          <span className="who">{CAPTION_LABELS[line.role]}</span> {line.text}
        </p>
      ))}
    </>
  );
}
