// Captions of a live call, loaded with the first call (nothing of them in the first load): the
// lines of the call's `transcript` messages, the prospect's labelled. They live while the call
// does (App.tsx unmounts this when the call ends, which clears them); the live region around them
// is in App.tsx, so it exists before any line and screen readers announce each one. The region
// scrolls: each new line is brought into view, older ones stay a scroll away.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { WebCall } from '#core/webcall/webcall';
import { addCaption, CAPTION_LABELS, type Caption } from './caption-lines.js';

/** The conversation on `client` so far (its latest lines). */
export default function Captions({ client }: { client: WebCall }) {
  const [lines, setLines] = useState<Caption[]>([]);
  const end = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const listener = (message: unknown) => setLines((current) => addCaption(current, message));
    client.on('message', listener);
    return () => void client.off('message', listener);
  }, [client]);
  useLayoutEffect(() => {
    const box = end.current?.parentElement;
    if (box) box.scrollTop = box.scrollHeight;
  }, [lines]);
  return (
    <>
      {lines.map((line, i) => (
        <p key={i} className={line.final ? line.role : `${line.role} partial`}>
          <span className="who">{CAPTION_LABELS[line.role]}</span> {line.text}
        </p>
      ))}
      {/* Only with lines: an empty region takes no room. */}
      {lines.length > 0 && <span ref={end} />}
    </>
  );
}
