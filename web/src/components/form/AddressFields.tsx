import { useRef } from 'react';
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

/**
 * CEP, street, number, complement, district, city and UF. When the CEP reaches 8 digits
 * the postal-code lookup fills street, district, city and UF and focuses the number; on a
 * failure those clear and UF becomes '--' (spec 02 §5 'Address lookup').
 */
export function AddressFields<T extends FieldValues>({ form, zipField, disabled }: AddressFieldsProps<T>) {
  const { register, setValue, formState, setFocus } = form;
  const errors = formState.errors as Record<string, { message?: string } | undefined>;
  // Only what the user types is looked up (a loaded form keeps its saved address); a newer
  // CEP wins over an answer still on its way.
  const pending = useRef('');

  const lookUp = async (typed: string) => {
    const cep = onlyDigits(typed);
    if (cep.length !== 8 || cep === pending.current) return;
    pending.current = cep;
    const address = await lookupCep(cep);
    if (pending.current !== cep) return;
    pending.current = '';
    const set = (name: (typeof LOOKED_UP)[number], value: string) =>
      setValue(name as Path<T>, value as PathValue<T, Path<T>>, { shouldValidate: formState.isSubmitted, shouldDirty: true });
    if (address) {
      for (const name of LOOKED_UP) set(name, address[name]);
      setFocus('number' as Path<T>);
    } else {
      set('street', '');
      set('district', '');
      set('city', '');
      set('state', '--');
    }
  };

  const field = (name: string) => register(name as Path<T>);
  return (
    <>
      <TextField label="CEP" mask="cep" disabled={disabled} error={errors[zipField]?.message} {...register(zipField, { onChange: (event) => void lookUp(event.target.value) })} />
      <TextField label="Rua" disabled={disabled} error={errors.street?.message} {...field('street')} />
      <TextField label="Número" inputMode="numeric" maxLength={5} disabled={disabled} error={errors.number?.message} {...field('number')} />
      <TextField label="Complemento" disabled={disabled} error={errors.complement?.message} {...field('complement')} />
      <TextField label="Bairro" disabled={disabled} error={errors.district?.message} {...field('district')} />
      <TextField label="Cidade" disabled={disabled} error={errors.city?.message} {...field('city')} />
      <SelectField label="UF" options={STATE_OPTIONS} disabled={disabled} error={errors.state?.message} {...field('state')} />
    </>
  );
}
