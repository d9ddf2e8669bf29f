// The captions' lines, loaded with the first call (the live region around them is in App.tsx, so
// it exists before any line is added and screen readers announce each one).
import type { Caption } from './captions.js';
import { text } from './messages.js';

/** The last few lines of the conversation, the prospect's labelled. */
export default function Captions({ lines }: { lines: Caption[] }) {
  return (
    <>
      {lines.map((line, i) => (
        <p key={i} className={line.final ? line.role : `${line.role} partial`}>
          <span className="who">{line.role === 'user' ? text.captionYou : text.captionAssistant}</span> {line.text}
        </p>
      ))}
    </>
  );
}
