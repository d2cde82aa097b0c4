/** `livelox-bridge/simulator`: a local, contract-faithful stand-in for the service, for tests, demos and CI. */
export { Simulator, startSimulator } from './server.js';
export type { SimulatorInfo, SimulatorOptions } from './server.js';
export { SimClock } from './clock.js';
export type { ClockAdvance } from './clock.js';
export { SimWorld } from './world.js';
export type { SimChange, SimChangeSource } from './world.js';
export type { SimClassInput, SimEventChange, SimEventInput } from './world-input.js';
export type { SimDataset, SimEvent, SimClass, SimCountry } from './model.js';
export { generateDataset } from './dataset/generate.js';
export { loadDatasetFile, parseDataset } from './dataset/file.js';
export { FAULT_KINDS } from './faults.js';
export type { FaultKind } from './faults.js';
export type { FaultScriptProgress, FaultScriptStep } from './fault-script.js';
export type { StatsSnapshot } from './stats.js';
export type { ServedRoute } from './openapi.js';
export type { SimJournal, SimJournalAuth, SimJournalEntry, SimJournalFileStatus, SimJournalFilter } from './journal.js';
