// `voice load --report FILE.html`: one self-contained page (inline CSS and SVG, no script, no
// external asset) with the verdict, the table, the p95 answer time over the run per message type,
// and a histogram of answer times per message type.
import type { LoadResult, Sample } from '#core/load/index';
import { quantile } from '#core/load/index';
import type { Verdict } from './output.js';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4b5563', '#65a30d'];
const W = 720;
const H = 240;
const PAD = 40;

function byType(samples: readonly Sample[]): Map<string, Sample[]> {
  const m = new Map<string, Sample[]>();
  for (const s of samples) {
    const list = m.get(s.type) ?? [];
    list.push(s);
    m.set(s.type, list);
  }
  return m;
}

/** p95 per time bucket per type, as polylines. */
function overTime(r: LoadResult, types: Map<string, Sample[]>): string {
  const span = Math.max(1, ...r.samples.map((s) => s.at));
  const buckets = 40;
  const width = span / buckets;
  const lines: { type: string; points: [number, number][] }[] = [];
  let top = 1;
  for (const [type, list] of types) {
    const per: number[][] = Array.from({ length: buckets + 1 }, () => []);
    for (const s of list) (per[Math.min(buckets, Math.floor(s.at / width))] as number[]).push(s.ms);
    const points: [number, number][] = [];
    per.forEach((ms, i) => {
      if (!ms.length) return;
      const p95 = quantile(
        ms.sort((a, b) => a - b),
        0.95,
      );
      top = Math.max(top, p95);
      points.push([i * width, p95]);
    });
    lines.push({ type, points });
  }
  const x = (t: number): number => PAD + ((W - 2 * PAD) * t) / span;
  const y = (v: number): number => H - PAD + (-(H - 2 * PAD) * v) / top;
  const paths = lines
    .map(
      (l, i) =>
        `<polyline fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="1.5" points="${l.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"><title>${esc(l.type)}</title></polyline>`,
    )
    .join('');
  const legend = lines.map((l, i) => `<span><i style="background:${COLOURS[i % COLOURS.length]}"></i>${esc(l.type)}</span>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="p95 answer time over the run"><line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#999"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#999"/><text x="${PAD}" y="${PAD - 8}">${top.toFixed(1)} ms</text><text x="${W - PAD}" y="${H - PAD + 16}" text-anchor="end">${(span / 1000).toFixed(1)} s</text><text x="${PAD}" y="${H - PAD + 16}">0</text>${paths}</svg><p class="legend">${legend}</p>`;
}

/** A histogram of one type's answer times in 20 bins from 0 to its largest. */
function histogram(type: string, list: Sample[], colour: string): string {
  const bins = 20;
  const max = Math.max(...list.map((s) => s.ms), 0.001);
  const counts = new Array<number>(bins).fill(0);
  for (const s of list) {
    const i = Math.min(bins - 1, Math.floor((s.ms / max) * bins));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  const most = Math.max(...counts, 1);
  const w = 320;
  const h = 120;
  const bw = (w - 20) / bins;
  const bars = counts
    .map((n, i) => {
      const bh = ((h - 30) * n) / most;
      return `<rect x="${(10 + i * bw).toFixed(1)}" y="${(h - 20 - bh).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${bh.toFixed(1)}" fill="${colour}"><title>${((i * max) / bins).toFixed(1)}–${(((i + 1) * max) / bins).toFixed(1)} ms: ${n}</title></rect>`;
    })
    .join('');
  return `<figure><figcaption>${esc(type)} (${list.length})</figcaption><svg viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(type)} answer times"><text x="10" y="${h - 6}">0</text><text x="${w - 10}" y="${h - 6}" text-anchor="end">${max.toFixed(1)} ms</text>${bars}</svg></figure>`;
}

/** The whole page. */
export function reportPage(r: LoadResult, verdict: Verdict): string {
  const types = byType(r.samples);
  const rows = r.types
    .map(
      (t) =>
        `<tr><td>${esc(t.type)}</td><td>${t.count}</td><td>${t.p50.toFixed(1)}</td><td>${t.p95.toFixed(1)}</td><td>${t.p99.toFixed(1)}</td><td>${esc(
          Object.entries(t.errors)
            .map(([k, n]) => `${k}×${n}`)
            .join(' ') || '-',
        )}</td><td>${t.misses}</td><td>${t.deadlineSeconds} s</td></tr>`,
    )
    .join('');
  const hist = [...types].map(([type, list], i) => histogram(type, list, COLOURS[i % COLOURS.length] as string)).join('');
  const status = verdict.ok ? 'PASS' : `FAIL: ${verdict.reasons.join('; ')}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>voice load: ${esc(status)}</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem auto;max-width:760px;padding:0 1rem;color:#111}
h1{font-size:1.3rem}.ok{color:#15803d}.bad{color:#b91c1c}table{border-collapse:collapse;width:100%}
td,th{padding:.25rem .5rem;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child{text-align:left}
svg{width:100%;height:auto;font-size:11px;fill:#444}.legend span{margin-right:1rem;white-space:nowrap}
.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}figure{display:inline-block;width:48%;margin:0 1% 1rem 0}
figcaption{font-weight:600}</style></head><body>
<h1 class="${verdict.ok ? 'ok' : 'bad'}">${esc(status)}</h1>
<p>${r.calls.started} calls (${r.calls.inbound} inbound, ${r.calls.outbound} outbound), ${r.deliveries} deliveries in ${(r.elapsedMs / 1000).toFixed(1)} s (${r.perSecond.toFixed(0)}/s), ${r.errors} failed, ${r.misses} past their deadline.</p>
<table><thead><tr><th>type</th><th>count</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>errors</th><th>misses</th><th>deadline</th></tr></thead><tbody>${rows}</tbody></table>
<h2>p95 answer time over the run</h2>${overTime(r, types)}
<h2>Answer times per message type</h2>${hist}
</body></html>
`;
}
