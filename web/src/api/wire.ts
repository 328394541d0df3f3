// Names for the generated wire types in common use. src/api/generated.ts is generated from
// the APIs' OpenAPI documents (`npm run gen:api`, docs/api.md); a type named here follows
// the server's answer type, and tsc fails where a screen reads a field the server dropped.
import type { components } from './generated';

/** Every schema the two documents describe, by name (`Schemas['ClientItem']`). */
export type Schemas = components['schemas'];

/** The body of every error answer: the message, and the fields' messages on a 422. */
export type ErrorBody = Schemas['ErrorBody'];
