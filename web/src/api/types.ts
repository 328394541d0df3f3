// Wire shapes of the HTTP contract (responses are PascalCase, requests camelCase). The ones
// generated from the APIs' documents are named in wire.ts.
import type { ErrorBody } from './wire';

export type RoleType = 'ADMIN' | 'ATTENDANT' | 'BARBER_LEADE' | 'BARBER1' | 'BARBER2' | 'DEFAULT';

/** Error body of every failed call, read defensively (a proxy's error page has none). */
export type ApiErrorBody = Partial<ErrorBody>;
