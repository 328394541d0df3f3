import { useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { lookupCep } from '@/lib/cep';
import { onlyDigits } from '@/lib/masks';
import { STATE_OPTIONS } from '@/lib/rules';
import { TextField } from '../TextField';
import { SelectField } from './fields';

interface AddressFieldsProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  /** The form's CEP field: `cep` (professional, profile) or `zipCode` (company). */
  zipField: Path<T>;
  disabled?: boolean;
}

const LOOKED_UP = ['street', 'district', 'city', 'state'] as const;

/** Shown on the CEP field when the lookup says the CEP does not exist (issue 45 point 7). */
export const CEP_NOT_FOUND = 'CEP não encontrado';

/**
 * CEP, street, number, complement, district, city and UF. When the CEP reaches 8 digits
 * the postal-code lookup fills street, district, city and UF and focuses the number (spec
 * 02 §5 'Address lookup'). Issue 45 point 7 changes the spec's failure rule: what the user
 * typed is never cleared. An unknown CEP says 'CEP não encontrado' on the CEP field (a note,
 * not a rule: the form still saves, since ViaCEP does not know every new CEP); a lookup that
 * could not be made (network, 5xx) says nothing and the user types the address.
 */
export function AddressFields<T extends FieldValues>({ form, zipField, disabled }: AddressFieldsProps<T>) {
  const { register, setValue, formState, setFocus } = form;
  const errors = formState.errors as Record<string, { message?: string } | undefined>;
  // Only what the user types is looked up (a loaded form keeps its saved address); a newer
  // CEP wins over an answer still on its way.
  const pending = useRef('');
  // Kept beside the form's errors, not in them: the schema's checks would overwrite it, and
  // it must not stop a save.
  const [notFound, setNotFound] = useState(false);

  const lookUp = async (typed: string) => {
    const cep = onlyDigits(typed);
    if (cep.length === 8 && cep === pending.current) return;
    setNotFound(false);
    if (cep.length !== 8) {
      // Edited while a lookup was on its way: its answer no longer applies.
      pending.current = '';
      return;
    }
    pending.current = cep;
    const lookup = await lookupCep(cep);
    if (pending.current !== cep) return;
    pending.current = '';
    if (lookup.status === 'found') {
      for (const name of LOOKED_UP) {
        setValue(name as Path<T>, lookup.address[name] as PathValue<T, Path<T>>, {
          shouldValidate: formState.isSubmitted,
          shouldDirty: true,
        });
      }
      setFocus('number' as Path<T>);
    } else if (lookup.status === 'notFound') {
      setNotFound(true);
    }
  };

  const field = (name: string) => register(name as Path<T>);
  return (
    <>
      <TextField
        label="CEP"
        mask="cep"
        disabled={disabled}
        error={errors[zipField]?.message ?? (notFound ? CEP_NOT_FOUND : undefined)}
        {...register(zipField, { onChange: (event) => void lookUp(event.target.value) })}
      />
      <TextField label="Rua" disabled={disabled} error={errors.street?.message} {...field('street')} />
      <TextField label="Número" inputMode="numeric" maxLength={5} disabled={disabled} error={errors.number?.message} {...field('number')} />
      <TextField label="Complemento" disabled={disabled} error={errors.complement?.message} {...field('complement')} />
      <TextField label="Bairro" disabled={disabled} error={errors.district?.message} {...field('district')} />
      <TextField label="Cidade" disabled={disabled} error={errors.city?.message} {...field('city')} />
      <SelectField label="UF" options={STATE_OPTIONS} disabled={disabled} error={errors.state?.message} {...field('state')} />
    </>
  );
}
