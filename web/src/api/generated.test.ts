// The wire types are generated from the APIs' documents (scripts/gen-api.mjs); this fails
// while src/api/generated.ts is not what the documents' copies give now.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types.
import { OUTPUT, generate, merge } from '../../scripts/gen-api.mjs';

describe('generated wire types', () => {
  it('are current: run `npm run gen:api` after the documents change', async () => {
    expect(readFileSync(OUTPUT, 'utf8') === (await generate())).toBe(true);
  });

  it('merge both APIs, refusing a path or component the two document differently', () => {
    const doc = (paths: object, schemas: object = {}) => ({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths, components: { schemas } });
    const merged = merge(doc({ '/a': { post: { x: 1 } } }, { E: { type: 'object' } }), doc({ '/a': { get: { y: 2 } } }, { E: { type: 'object' } }));
    expect(Object.keys(merged.paths['/a']).sort()).toEqual(['get', 'post']);
    expect(() => merge(doc({ '/a': { get: { x: 1 } } }), doc({ '/a': { get: { y: 2 } } }))).toThrow('both APIs document GET /a');
    expect(() => merge(doc({}, { E: { type: 'object' } }), doc({}, { E: { type: 'string' } }))).toThrow('components.schemas.E');
  });
});
