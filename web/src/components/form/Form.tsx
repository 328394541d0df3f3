import type { FormEvent, ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { applyServerErrors } from './serverErrors';

interface FormProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** Sends the valid values; a rejection with a 422 (or a 409 naming a field) lands on the fields it names. */
  onSubmit: (values: T) => Promise<unknown>;
  /** Body field → form field, where the names differ. */
  serverFieldOf?: Record<string, string>;
  children: ReactNode;
  className?: string;
  'aria-label'?: string;
}

/**
 * The one form pattern of the back office: react-hook-form with a schema resolver, the
 * server's 422 (and field-naming 409) `errors` set on the fields they name. Other failures are already toasted by
 * the base query (spec 02 §8), so they are swallowed here.
 */
export function Form<T extends FieldValues>({ form, onSubmit, serverFieldOf, children, className, ...rest }: FormProps<T>) {
  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.handleSubmit(async (values) => {
      try {
        await onSubmit(values);
      } catch (failure) {
        applyServerErrors(failure, form.setError, Object.keys(form.getValues()) as Path<T>[], serverFieldOf);
      }
    })(event);
  return (
    <form noValidate className={`entity-form${className ? ` ${className}` : ''}`} onSubmit={submit} aria-label={rest['aria-label']}>
      {children}
    </form>
  );
}

/** A titled group of fields laid out on a responsive grid. */
export function FormSection({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <fieldset className="form-section">
      {title && <legend className="form-section-title">{title}</legend>}
      <div className="form-grid">{children}</div>
    </fieldset>
  );
}

/** The buttons row at the bottom of a form ('Cancelar', 'Salvar', ...). */
export function FormButtons({ children }: { children: ReactNode }) {
  return <div className="form-buttons">{children}</div>;
}

interface DialogButtonsProps {
  onCancel: () => void;
  submitting: boolean;
  /** The submit button's text ('Salvar', 'Fechar caixa', ...). */
  label: string;
}

/** A dialog form's buttons: 'Cancelar' and the submit, disabled while it is sent. */
export function DialogButtons({ onCancel, submitting, label }: DialogButtonsProps) {
  return (
    <FormButtons>
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancelar
      </button>
      <button type="submit" className="button button-primary" disabled={submitting}>
        {label}
      </button>
    </FormButtons>
  );
}
