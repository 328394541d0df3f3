/**
 * The little of OpenAPI 3.1 the API documents page reads. The documents are built by the
 * services from their code (docs/api.md) and fetched from `/api/openapi/<api>.json`.
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface Response {
  description?: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { description?: string }>;
}

export interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: Record<string, MediaType> };
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
}

export interface Document {
  openapi: string;
  info: { title: string; description?: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head'] as const;

export interface Entry {
  method: string;
  path: string;
  operation: Operation;
}

/** The operations of a document grouped by their first tag, tags and paths in order. */
export function groupByTag(document: Document): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Whether an operation matches a search: its path, method, summary or tag. */
export function matches(entry: Entry, search: string): boolean {
  const wanted = search.trim().toLowerCase();
  if (!wanted) return true;
  const { method, path, operation } = entry;
  return [method, path, operation.summary ?? '', ...(operation.tags ?? [])].some((text) =>
    text.toLowerCase().includes(wanted),
  );
}

/** `#/components/schemas/DayOffForm` → `DayOffForm`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A schema's type in one short line: `string | null`, `DayOffItem[]`, `integer (int64)`. */
export function typeLabel(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return refName(schema.$ref);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return alternatives.map(typeLabel).join(' | ');
  if (schema.allOf) return schema.allOf.map(typeLabel).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types
    .map((type) => {
      if (type === 'array') return `${typeLabel(schema.items) || 'any'}[]`;
      if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object')
        return `map<string, ${typeLabel(schema.additionalProperties)}>`;
      return type;
    })
    .join(' | ');
  return label || 'any';
}

/** The bounds and constraints of a schema, as short texts: `1 ≤ n ≤ 100`, `≤ 200 chars`. */
export function constraints(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const notes: string[] = [];
  if (schema.format && !['int64', 'int32'].includes(schema.format)) notes.push(schema.format);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    notes.push(`${schema.minimum} ≤ n ≤ ${schema.maximum}`);
  } else if (schema.minimum !== undefined) {
    notes.push(`≥ ${schema.minimum}`);
  } else if (schema.maximum !== undefined) {
    notes.push(`≤ ${schema.maximum}`);
  }
  if (schema.minLength !== undefined) notes.push(`≥ ${schema.minLength} chars`);
  if (schema.maxLength !== undefined) notes.push(`≤ ${schema.maxLength} chars`);
  if (schema.enum) notes.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if (schema.default !== undefined && schema.default !== null) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The named schema a reference points to, if the document has it. */
export function resolve(document: Document, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return document.components?.schemas?.[refName(schema.$ref)];
}
