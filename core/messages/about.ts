// One line per server message type: when the platform sends it (and what an answer does, for the
// types that wait for one). `voice trigger --list` prints these; our own words, checked against the
// published schemas' fields.
import type { ServerMessageType } from './types.js';

export const ABOUT: Readonly<Record<ServerMessageType, string>> = {
  'assistant-request': 'an inbound call on a number with no assistant: answer with the assistant, squad or workflow to use',
  'conversation-update': 'the conversation changed: every message so far',
  'end-of-call-report': 'the call ended: transcript, summary, recording, costs and why it ended',
  'handoff-destination-request': 'a squad handoff asks which assistant takes over: answer with the destination',
  hang: 'the assistant is silent for longer than it should be (a delay the caller notices)',
  'knowledge-base-request': 'the assistant asks your knowledge base: answer with documents or a message to say',
  'model-output': "a piece of the model's output as it is generated",
  'phone-call-control': 'your server is asked to forward or hang up the call',
  'speech-update': 'the assistant or the caller started or stopped speaking',
  'status-update': "the call's status changed (queued, ringing, in-progress, forwarding, ended)",
  'tool-calls': 'the assistant calls your function tools: answer with their results',
  'transfer-destination-request': 'a transfer without a fixed destination asks where to: answer with a number, SIP URI or assistant',
  'transfer-update': 'the call was transferred',
  transcript: 'a partial or final line of what the assistant or the caller said',
  'user-interrupted': 'the caller spoke over the assistant, which stopped',
  'language-change-detected': 'the transcriber heard the caller switch language',
  'voice-input': 'text about to be spoken, for a custom voice',
  'assistant.speechStarted': 'the assistant started speaking a piece of text',
  'voice-request': 'a custom voice asks for speech: answer with the audio for the text',
  'call.endpointing.request': 'custom endpointing asks whether the caller has finished: answer with the seconds to wait',
  'chat.created': 'a chat was created',
  'chat.deleted': 'a chat was deleted',
  'session.created': 'a session was created',
  'session.updated': 'a session was updated',
  'session.deleted': 'a session was deleted',
  'call.deleted': "a call's record was deleted",
  'call.delete.failed': "deleting a call's record failed",
  'call.artifact.upload': "the call's artifacts (recording, logs) were uploaded, with success per artifact",
  'campaign.predial': 'a campaign is about to dial a contact: answer whether it is eligible',
  'assistant.started': 'an assistant started on the call (the first, or the next after a handoff)',
  'campaign.event': "a campaign's lifecycle event (campaign.started, contact.completed...) to the campaign's server, as its serverMessages ask",
};
