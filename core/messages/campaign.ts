// A campaign's own events: the names its `serverMessages` may list (the published enum) and the
// `data` fields each carries in the `campaign.event` envelope its guide shows. One place for both,
// read by the builder, the emulator's campaigns and the checks of delivered messages.

/** Every event a campaign may send (the published `serverMessages` enum of a campaign). */
export const campaignEventTypes = [
  'campaign.started',
  'campaign.cancelled',
  'campaign.ended',
  'campaign.archived',
  'campaign.unarchived',
  'contact.dispatched',
  'contact.completed',
  'contact.failed',
  'contact.skipped',
  'contact.predial-failed',
  'campaign.job.continued',
] as const;

/** One campaign event name. */
export type CampaignEventType = (typeof campaignEventTypes)[number];

/** The `data` fields of each event (none are required: an event reports what it knows). */
export const CAMPAIGN_EVENT_DATA: Readonly<Record<CampaignEventType, readonly string[]>> = {
  'campaign.started': ['workflowId'],
  'campaign.cancelled': ['endedReason'],
  'campaign.ended': ['endedReason'],
  'campaign.archived': [],
  'campaign.unarchived': [],
  'contact.dispatched': ['contactId'],
  'contact.completed': ['contactId', 'callId', 'endedReason'],
  'contact.failed': ['contactId', 'callId', 'endedReason'],
  'contact.skipped': ['contactId'],
  'contact.predial-failed': ['contactId', 'error'],
  'campaign.job.continued': [],
};

/** True for a name a campaign's `serverMessages` may hold. */
export function isCampaignEventType(type: unknown): type is CampaignEventType {
  return typeof type === 'string' && Object.hasOwn(CAMPAIGN_EVENT_DATA, type);
}

/** Problems of a `campaign.event` message's own fields (its envelope, event name and data), as sentences. */
export function campaignEventProblems(m: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof m.campaignId !== 'string' || !m.campaignId) problems.push('campaignId must be a string');
  if (!isCampaignEventType(m.eventType)) problems.push(`eventType must be one of the following values: ${campaignEventTypes.join(', ')}`);
  const data = m.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [...problems, 'data must be an object'];
  const allowed = isCampaignEventType(m.eventType) ? CAMPAIGN_EVENT_DATA[m.eventType] : [];
  for (const [key, value] of Object.entries(data)) {
    if (!allowed.includes(key)) problems.push(`data.${key} is not a field of ${String(m.eventType)}`);
    else if (typeof value !== 'string') problems.push(`data.${key} must be a string`);
  }
  return problems;
}
