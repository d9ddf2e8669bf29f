// The inline "Call Me" form. Loaded only when the form first opens: it carries the phone
// library and its metadata; the flag of the chosen country is an image of the page's own origin
// (flags/XX.svg, see web/vite/flag-files.ts), never fetched from a third-party host.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import PhoneInput from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import type { LocalCallInfo } from './config.js';
import { formText as text } from './form-text.js';
import LocalNote from './LocalNote.js';
import { refusalText } from './local-text.js';

/** US, GB, CA, AU first, then every other country of the library alphabetically by name. */
export const COUNTRY_ORDER = ['US', 'GB', 'CA', 'AU', '...'] as const;

/** The flag images, served by the page's own origin (web/vite/flag-files.ts). */
const FLAG_URL = `${import.meta.env.BASE_URL}flags/{XX}.svg`;

/** How long the webhook may take before the page reports a failure. */
const WEBHOOK_TIMEOUT_MS = 15000;

/** What the local webhook answers (`voice demo` on the local platform); a hosted webhook's answer is never read. */
interface LocalAnswer {
  callId?: unknown;
  local?: LocalCallInfo;
  error?: unknown;
  message?: unknown;
}

/**
 * The phone field and its submit button; posts `{ phone, slug }` to the webhook. On the local
 * platform (`local`) it also says where a placed call went, and why a refusal retrying cannot fix
 * happened; elsewhere only the specification's texts show.
 */
export default function PhoneForm({ webhookUrl, slug, local = false, onClose }: { webhookUrl: string; slug: string; local?: boolean; onClose(): void }) {
  const [phone, setPhone] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  // The form opens because someone wants to type a number: the field gets the keyboard.
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input[type="tel"]')?.focus(), []);
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onClose();
  };
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [placed, setPlaced] = useState<{ info: LocalCallInfo; callId?: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    setSuccess('');
    setPlaced(null);
    if (!phone) {
      setError(text.emptyPhone);
      return;
    }
    setBusy(true);
    try {
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ phone, slug }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      // The local webhook explains itself in JSON; a hosted one is judged by its status alone (spec 7).
      const answer: LocalAnswer = await response.json().then(
        (b: unknown) => (b && typeof b === 'object' ? (b as LocalAnswer) : {}),
        () => ({}),
      );
      if (!response.ok) {
        // Visitors see the spec's text, developers the reason; on the local platform a refusal retrying cannot fix says why.
        const detail = typeof answer.message === 'string' ? `: ${answer.message}` : '';
        throw Object.assign(new Error(`The webhook answered ${response.status}${detail}`), { why: local ? refusalText(answer.error) : undefined });
      }
      setSuccess(text.callSuccess);
      if (local && answer.local) setPlaced({ info: answer.local, ...(typeof answer.callId === 'string' ? { callId: answer.callId } : {}) });
      setPhone(undefined);
    } catch (err) {
      console.error('Call Me failed:', err);
      setError((err as { why?: string }).why ?? text.callFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={form} className="phone-form" onSubmit={submit} onKeyDown={escape} noValidate>
      <label className="sr-only" htmlFor="phone">
        {text.phoneLabel}
      </label>
      <PhoneInput
        id="phone"
        value={phone}
        onChange={setPhone}
        flagUrl={FLAG_URL}
        defaultCountry="US"
        international
        countryCallingCodeEditable={false}
        addInternationalOption={false}
        countryOptionsOrder={[...COUNTRY_ORDER]}
        autoComplete="tel"
        disabled={busy}
      />
      <button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? text.initiating : text.callNow}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {success && (
        <p className="success" role="status">
          {success}
        </p>
      )}
      {placed && <LocalNote info={placed.info} kind="phone" {...(placed.callId ? { callId: placed.callId } : {})} />}
    </form>
  );
}
