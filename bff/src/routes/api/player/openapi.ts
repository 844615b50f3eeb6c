import { playerReport } from '@media-site/contracts/player-report';
import type { Resource } from '../openapi/operation';

export const playerApi: Resource = {
  tag: 'player',
  description: "Playback quality as members' players measured it, counted into the metrics and not stored.",
  operations: [
    {
      method: 'post',
      path: '/api/player/reports',
      summary: 'Report time to first frame, stalls, quality changes and errors (a batch of at most 32)',
      session: 'member',
      body: playerReport,
      answers: { 204: null },
      errors: ['bad_request', 'unauthenticated', 'forbidden', 'rate_limited', 'too_large', 'unsupported_media_type'],
    },
  ],
};
