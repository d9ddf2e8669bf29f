// Workflows, in outline: the nodes run in edge order from the start node. A conversation node
// says its line (the first sentence of its prompt) and hears the customer's next turn; a tool
// node calls its tool; the path's end ends the call. No model picks edges: the first one wins.
import type { Json } from '../../messages/index.js';
import { argumentsFor } from './arguments.js';
import { callTools, scriptedNote, STAND_IN_REPLY } from './conversation.js';
import { toolName } from './resolve.js';
import type { Scenario } from './scenario.js';
import type { CallSession } from './session.js';

/** The nodes of a workflow in the order the outline runs them (start node, then first edges; no repeats). */
export function nodePath(workflow: Json): Json[] {
  const nodes = Array.isArray(workflow.nodes) ? (workflow.nodes as Json[]) : [];
  const edges = Array.isArray(workflow.edges) ? (workflow.edges as Json[]) : [];
  const byName = new Map(nodes.map((n) => [n.name, n]));
  let at: Json | undefined = nodes.find((n) => n.isStart === true) ?? nodes[0];
  const path: Json[] = [];
  const seen = new Set<unknown>();
  while (at && !seen.has(at.name)) {
    seen.add(at.name);
    path.push(at);
    const edge = edges.find((e) => e.from === at?.name);
    at = edge ? byName.get(edge.to) : undefined;
  }
  return path;
}

function lineOf(node: Json): string {
  const prompt = typeof node.prompt === 'string' ? node.prompt.trim() : '';
  const first = prompt.split(/(?<=[.!?])\s/)[0];
  return first || `(${String(node.name)})`;
}

/** Runs a workflow's nodes in order with the scenario's customer turns, then ends the call. */
export async function runWorkflow(s: CallSession, workflow: Json, scenario: Scenario): Promise<void> {
  s.assistant = { name: String(workflow.name ?? 'workflow'), ...(workflow.server ? { server: workflow.server } : {}), ...(workflow.serverMessages ? { serverMessages: workflow.serverMessages } : {}) };
  // Workflows are walked in outline, never on a model: their conversations are always scripted.
  scriptedNote(s);
  void s.send('assistant.started', { newAssistant: s.assistant });
  const turns = scenario.turns.filter((t) => t.say !== undefined);
  let next = 0;
  for (const node of nodePath(workflow)) {
    if (s.ended) return;
    s.log(`Workflow node ${String(node.name)} (${String(node.type)})`);
    if (node.type === 'tool') {
      const tool = (node.tool as Json | undefined) ?? (typeof node.toolId === 'string' ? s.deps.store.get('tool', node.toolId) : undefined);
      if (tool && toolName(tool)) await callTools(s, [{ tool, arguments: argumentsFor((tool.function as Json).parameters as Json | undefined) }]);
      continue;
    }
    if (!(await s.speak('assistant', lineOf(node)))) return;
    const turn = turns[next++];
    if (!turn) break;
    if (!(await s.wait(turn.pauseSeconds ?? 0.8))) return;
    if (!(await s.speak('user', turn.say as string))) return;
    if (turn.hangup) return s.finish('customer-ended-call');
  }
  if (!s.ended && next === 0) await s.speak('assistant', STAND_IN_REPLY);
  s.finish('assistant-ended-call');
}
