import { prepareStackSources } from './stack';

// Runs once in vitest's main process before any file of the tests project: files run two at a
// time, and two of them building frontend/dist or the demo template at once would clash.
export default async function setup(): Promise<void> {
  await prepareStackSources(console.log);
}
