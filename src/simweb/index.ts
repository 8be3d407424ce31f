// Public face of the simulated Linked-Data web: start one, read its truth, compute the oracle.
export type { OracleOptions, OracleSource } from './oracle.ts';
export { oracleCurve } from './oracle.ts';
export { Prng, hashParts } from '../random/prng.ts';
export type { Profile, ProfileSite } from './profiles/index.ts';
export { HELD_OUT_PROFILES, META_PROFILES, PROFILES, resolveProfiles, TUNING_PROFILES } from './profiles/index.ts';
export type { RespondOptions, SimResponse } from './respond.ts';
export { prefersRdf, respond } from './respond.ts';
export type { LoggedRequest, PldPoliteness, PolitenessCheckOptions, PolitenessReport } from './politeness-check.ts';
export { checkPoliteness } from './politeness-check.ts';
export type { RequestLogEntry } from './request-log.ts';
export { preciseNow, RequestLog } from './request-log.ts';
export type { SimWeb, SimWebOptions } from './server.ts';
export { startSimweb } from './server.ts';
export { truthForUrl, truthLines, truthRecords, writeTruth } from './truth.ts';
export type { DocKind, Label, RdfFormat, SimSite, SimWebStats, TruthRecord } from './types.ts';
export type { WebModel, WebOptions } from './web.ts';
export { buildWeb, copyHost, linksOf } from './web.ts';
