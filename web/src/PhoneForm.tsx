// The inline "Call Me" form. Loaded only when the form first opens: it carries the phone
// library and its metadata; the flag of the chosen country is an image of the page's own origin
// (flags/XX.svg, see web/vite/flag-files.ts), never fetched from a third-party host.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import PhoneInput from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import { formText as text } from './form-text.js';

/** US, GB, CA, AU first, then every other country of the library alphabetically by name. */
export const COUNTRY_ORDER = ['US', 'GB', 'CA', 'AU', '...'] as const;

/** The flag images, served by the page's own origin (web/vite/flag-files.ts). */
const FLAG_URL = `${import.meta.env.BASE_URL}flags/{XX}.svg`;

/** How long the webhook may take before the page reports a failure. */
const WEBHOOK_TIMEOUT_MS = 15000;

/** The phone field and its submit button; posts `{ phone, slug }` to the webhook. */
export default function PhoneForm({ webhookUrl, slug, onClose }: { webhookUrl: string; slug: string; onClose(): void }) {
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

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    setSuccess('');
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
      if (!response.ok) {
        // The local webhook explains a refusal in JSON ({ message }); visitors see the spec's text, developers the reason.
        const detail = await response.json().then(
          (b: { message?: unknown }) => (typeof b?.message === 'string' ? `: ${b.message}` : ''),
          () => '',
        );
        throw new Error(`The webhook answered ${response.status}${detail}`);
      }
      setSuccess(text.callSuccess);
      setPhone(undefined);
    } catch (err) {
      console.error('Call Me failed:', err);
      setError(text.callFailed);
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
    </form>
  );
}
