// The queues of background work as one screen (the console's Queues, `ops queues`) and the operator
// switches (a queue's pause, maintenance mode).
export { cancelQueueJob, pauseQueue, retryQueueJob, type QueueActor } from './actions';
export { queueView, queueViews } from './overview';
export { queuePaused, setSwitch, switchState, type SwitchState } from './switches';
export { maintenanceMessage, maintenanceState, setMaintenance, type Maintenance } from './maintenance';
export { doublingDelay } from './backoff';
