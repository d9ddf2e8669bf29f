// The model's side of a conversation, turn by turn: what went to the model (system prompt,
// messages, tools offered), what it streamed back, the tools it called with the server's answers,
// and where each turn's time went, with the call's latency averages on top.
import type { ModelEvent } from './live';
import { Copy } from './ui';

type Step = Extract<ModelEvent, { kind: 'call.model' }>;
type ToolRun = Extract<ModelEvent, { kind: 'call.tool' }>;
type TurnDone = Extract<ModelEvent, { kind: 'call.turn' }>;

interface Turn {
  n: number;
  steps: Step[];
  tools: ToolRun[];
  done?: TurnDone;
}

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

/** The events grouped by turn, in turn order. */
export function turnsOf(events: readonly ModelEvent[]): Turn[] {
  const turns = new Map<number, Turn>();
  for (const e of events) {
    const t = turns.get(e.turn) ?? { n: e.turn, steps: [], tools: [] };
    turns.set(e.turn, t);
    if (e.kind === 'call.model') t.steps.push(e);
    else if (e.kind === 'call.tool') t.tools.push(e);
    else t.done = e;
  }
  return [...turns.values()].sort((a, b) => a.n - b.n);
}

const ms = (v: number | undefined): string => (v === undefined ? '—' : `${Math.round(v)} ms`);

/** The platform's latency averages of the call (from its artifact's `performanceMetrics`). */
function Averages({ metrics }: { metrics: Record<string, unknown> }) {
  const rows: [string, string][] = [
    ['Model (time to first token)', 'modelLatencyAverage'],
    ['Turn (model + simulated parts)', 'turnLatencyAverage'],
    ['Voice (simulated)', 'voiceLatencyAverage'],
    ['Transcriber (simulated)', 'transcriberLatencyAverage'],
    ['Endpointing (simulated)', 'endpointingLatencyAverage'],
  ];
  return (
    <dl className="facts averages" aria-label="Latency averages of the call (performanceMetrics)">
      {rows.map(([label, key]) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd>{typeof metrics[key] === 'number' ? ms(metrics[key]) : '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A turn's latencies as bars on one scale (`max`: the slowest turn of the call). */
function Bars({ done, max }: { done: TurnDone; max: number }) {
  const bars: [string, number][] = [
    ['Model, first token', done.modelMs],
    ['Model, all steps', done.modelTotalMs],
    ['Tools', done.toolMs],
    ['Turn total', done.totalMs],
  ];
  return (
    <div className="bars" role="group" aria-label={`Latencies of turn ${done.turn}`}>
      {bars.map(([label, v]) => (
        <div className="bar" key={label}>
          <span className="bar-label">{label}</span>
          <span className="bar-track" aria-hidden="true">
            <span className="bar-fill" style={{ width: `${max > 0 ? Math.max(0.5, (v / max) * 100) : 0}%` }} />
          </span>
          <span className="bar-value">{ms(v)}</span>
        </div>
      ))}
    </div>
  );
}

function content(m: Record<string, unknown>): string {
  if (typeof m.content === 'string') return m.content;
  const calls = list(m.tool_calls).map((c) => `${String(obj(c.function).name)}(${String(obj(c.function).arguments ?? '')})`);
  return calls.length ? `calls ${calls.join(', ')}` : '';
}

/** What went to the model: collapsed until asked for, copyable as JSON. */
function Request({ step }: { step: Step }) {
  const body = obj(step.request.body);
  const messages = list(body.messages);
  const system = messages.filter((m) => m.role === 'system');
  const rest = messages.filter((m) => m.role !== 'system');
  const tools = list(body.tools).map((t) => obj(t.function));
  // Every message the model was sent: the system prompt's and the older ones no longer kept too.
  const sent = messages.length + (step.omittedMessages ?? 0);
  if (step.bodyForgotten)
    return (
      <p className="muted">
        Model request to <code>{step.request.url}</code>: its body is no longer kept (only the newest model requests keep theirs).
      </p>
    );
  return (
    <details className="request">
      <summary>
        Model request: {sent} message{sent === 1 ? '' : 's'}, {tools.length} tool{tools.length === 1 ? '' : 's'} offered
      </summary>
      <p>
        POST <code>{step.request.url}</code> <Copy text={JSON.stringify(step.request, null, 2)} label={`model request of turn ${step.turn} step ${step.step} as JSON`} />
      </p>
      <h4>System prompt</h4>
      {system.length ? (
        system.map((m, i) => (
          <pre key={i} className="prompt">
            {content(m)}
          </pre>
        ))
      ) : (
        <p className="muted">None.</p>
      )}
      <h4>Messages</h4>
      {step.omittedMessages ? <p className="muted">{step.omittedMessages} older messages not kept.</p> : null}
      <ol className="msgs">
        {rest.map((m, i) => (
          <li key={i}>
            <span className="who">{String(m.role)}</span> <span className="said">{content(m)}</span>
          </li>
        ))}
      </ol>
      <h4>Tools offered</h4>
      {tools.length ? (
        <ul className="msgs">
          {tools.map((f, i) => (
            <li key={i}>
              <code>{String(f.name)}</code> {typeof f.description === 'string' ? f.description : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}
    </details>
  );
}

function StepView({ step, tools }: { step: Step; tools: ToolRun[] }) {
  return (
    <div className="step">
      <Request step={step} />
      {step.ok ? (
        <p>
          {step.text ? (
            <>
              Answer: <q>{step.text}</q>
            </>
          ) : (
            <span className="muted">No words: tool calls only.</span>
          )}{' '}
          <span className="muted">
            ({ms(step.firstTokenMs)} to first token, {ms(step.totalMs)} in all)
          </span>
        </p>
      ) : (
        <p className="error">
          Failed: {step.message} ({step.endedReason})
        </p>
      )}
      {(step.toolCalls ?? []).map((c) => {
        const run = tools.find((t) => t.id === c.id);
        return (
          <div key={c.id} className={`tool ${run?.error ? 'fail' : ''}`}>
            <p>
              Tool call <strong>{c.name}</strong> <span className="mono muted">{c.id}</span>
            </p>
            <p>
              Arguments: <code>{c.arguments}</code>
            </p>
            {run ? (
              <p>
                {run.error !== undefined ? (
                  <span className="error">Error: {run.error}</span>
                ) : (
                  <>
                    Result: <q>{run.result}</q>
                  </>
                )}{' '}
                <span className="muted">({ms(run.ms)})</span>
              </p>
            ) : (
              <p className="muted">Carried out by the call (an action), or waiting for the server.</p>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** The model's side of every assistant turn of a call (or chat). */
export function ModelTurns({ events, metrics, ended, empty }: { events: readonly ModelEvent[]; metrics?: Record<string, unknown> | undefined; ended: boolean; empty?: string }) {
  const turns = turnsOf(events);
  const max = Math.max(0, ...turns.map((t) => t.done?.totalMs ?? 0));
  return (
    <section aria-labelledby="model-h">
      <h2 id="model-h">The model, turn by turn</h2>
      {metrics && <Averages metrics={metrics} />}
      {!turns.length && (
        <p className="muted">{empty ?? (ended ? 'No model turns: the assistant had no model to call (a scripted conversation), or the call ended before it answered.' : 'No model turns yet.')}</p>
      )}
      <ol className="turns">
        {turns.map((t) => (
          <li key={t.n} className="turn">
            <h3>
              Turn {t.n} {t.steps.some((s) => s.replayed) && <span className="tag">replayed from cassette</span>} {!t.done && <span className="muted">running…</span>}
            </h3>
            {t.done && <Bars done={t.done} max={max} />}
            {t.done?.failure && <p className="error">{t.done.failure}</p>}
            {t.steps.map((s) => (
              <StepView key={s.step} step={s} tools={t.tools.filter((r) => r.step === s.step)} />
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
