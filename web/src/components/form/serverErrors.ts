import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/**
 * The `errors` map ({field: message}) of a 422, or of a 409 that names the field holding the
 * conflicting value (a CPF, e-mail or CNPJ already registered, issue 45), if the failure
 * carries one.
 */
export function fieldErrorsOf(failure: unknown): Record<string, string> | null {
  if (!failure || typeof failure !== 'object' || !('status' in failure)) return null;
  if (failure.status !== 422 && failure.status !== 409) return null;
  const data = (failure as { data?: unknown }).data;
  if (!data || typeof data !== 'object' || !('errors' in data)) return null;
  const errors = (data as { errors?: unknown }).errors;
  if (!errors || typeof errors !== 'object') return null;
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    if (typeof message === 'string') out[field] = message;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * Puts a 422's (or a field-naming 409's) messages on the form's fields (the one place that does it, for
 * every screen). `fieldOf` maps a body field the server names onto the form's field when
 * they differ (e.g. `idCompany` → `company`); fields the form does not have are skipped
 * (the error toast already shows the answer's message). Returns whether any landed.
 */
export function applyServerErrors<T extends FieldValues>(
  failure: unknown,
  setError: UseFormSetError<T>,
  known: readonly string[],
  fieldOf: Record<string, string> = {},
): boolean {
  const errors = fieldErrorsOf(failure);
  if (!errors) return false;
  let landed = false;
  let first = true;
  for (const [bodyField, message] of Object.entries(errors)) {
    const field = fieldOf[bodyField] ?? bodyField;
    if (!known.includes(field)) continue;
    setError(field as Path<T>, { type: 'server', message }, { shouldFocus: first });
    first = false;
    landed = true;
  }
  return landed;
}
