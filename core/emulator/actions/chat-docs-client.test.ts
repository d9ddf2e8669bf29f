// The platform's own streaming chat client code (its "Streaming chat" guide), unchanged, reads a
// `/chat` stream from the emulator: every `data:` line it JSON.parses is an event, the text comes
// whole, and the event `id` continues the chat as its context example does. Only the host differs:
// the guide's `https://api.vapi.ai` requests are sent to the emulator by a fetch wrapper.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startFakeModel } from '../../model/testing.js';
import type { FakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

// The guide's code as published, kept byte for byte apart from these comments.
// prettier-ignore
async function streamChatMessage(
  message: string, 
  previousChatId?: string
): Promise<string> {
  const response = await fetch('https://api.vapi.ai/chat', {
    method: 'POST',
    headers: {
      'Authorization': 'Bearer YOUR_API_KEY',
      'Content-Type': 'application/json'
    },
    body: JSON.stringify({
      assistantId: 'your-assistant-id',
      input: message,
      stream: true,
      ...(previousChatId && { previousChatId })
    })
  });

  const reader = response.body?.getReader();
  if (!reader) throw new Error('No reader available');
  
  const decoder = new TextDecoder();
  let fullResponse = '';

  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    
    const chunk = decoder.decode(value);
    const lines = chunk.split('\n').filter(line => line.trim());
    
    for (const line of lines) {
      if (line.startsWith('data: ')) {
        const data = JSON.parse(line.slice(6));
        if (data.path && data.delta) {
          fullResponse += data.delta;
          process.stdout.write(data.delta);
        }
      }
    }
  }
  
  return fullResponse;
}

// prettier-ignore
async function createStreamingConversation() {
  let lastChatId: string | undefined;

  async function sendMessage(input: string): Promise<string> {
    const response = await fetch('https://api.vapi.ai/chat', {
      method: 'POST',
      headers: {
        'Authorization': 'Bearer YOUR_API_KEY',
        'Content-Type': 'application/json'
      },
      body: JSON.stringify({
        assistantId: 'your-assistant-id',
        input: input,
        stream: true,
        ...(lastChatId && { previousChatId: lastChatId })
      })
    });

    const reader = response.body?.getReader();
    if (!reader) throw new Error('No reader available');
    
    const decoder = new TextDecoder();
    let fullContent = '';
    let currentChatId: string | undefined;

    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      
      const chunk = decoder.decode(value);
      const lines = chunk.split('\n').filter(line => line.trim());
      
      for (const line of lines) {
        if (line.startsWith('data: ')) {
          const event = JSON.parse(line.slice(6));
          
          if (event.id && !currentChatId) {
            currentChatId = event.id;
          }
          
          if (event.path && event.delta) {
            fullContent += event.delta;
            process.stdout.write(event.delta);
          }
        }
      }
    }
    
    if (currentChatId) {
      lastChatId = currentChatId;
    }
    
    return fullContent;
  }

  return { sendMessage };
}

let emu: Emulator;
let fake: FakeModel;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  fake = await startFakeModel([
    { text: 'Rate limiting caps how many requests you may send each minute.', textChunks: 5 },
    { text: 'Nice to meet you, Alice.', textChunks: 3 },
    { text: 'Your name is Alice.', textChunks: 3 },
  ]);
  const at = new Date().toISOString();
  const assistant = { id: 'your-assistant-id', orgId: 'o', createdAt: at, updatedAt: at, name: 'TechFlow support', model: { provider: 'openai', model: 'gpt-4o-mini' } };
  emu = await startEmulator({ model: { url: fake.url, model: 'fake-llm' }, initial: { format: 'voice-emulator', version: 1, orgId: 'o', userId: 'u', collections: { assistant: [assistant] } } });
  // The guide's requests go to the hosted platform: here they reach the emulator instead.
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => realFetch(String(input).replace('https://api.vapi.ai', emu.url), init));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await emu.close();
  await fake.close();
});

it("the guide's streaming function reads the whole reply from voice dev's /chat stream", async () => {
  expect(await streamChatMessage('Explain API rate limiting in detail')).toBe('Rate limiting caps how many requests you may send each minute.');
});

it("the guide's conversation keeps its context through the stream's id (previousChatId)", async () => {
  const conversation = await createStreamingConversation();
  expect(await conversation.sendMessage('My name is Alice')).toBe('Nice to meet you, Alice.');
  expect(await conversation.sendMessage("What's my name?")).toBe('Your name is Alice.');
  const asked = fake.requests.at(-1)?.body.messages as { role: string; content: string }[];
  expect(asked.map((m) => m.content)).toEqual(expect.arrayContaining(['My name is Alice', 'Nice to meet you, Alice.', "What's my name?"]));
});
