import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { MoneyField } from '@/components/MoneyField';
import { NumberField } from '@/components/NumberField';
import { ToggleGroup } from '@/components/ToggleGroup';
import { DISCOUNT_MODES, type DiscountMode } from './model';

interface DiscountInputProps<T extends FieldValues> {
  control: Control<T>;
  /** The form field holding 'value' or 'percent'. */
  modeName: Path<T>;
  /** The form field holding the amount: reais, or a whole percent. */
  amountName: Path<T>;
  label: string;
}

/** A discount in R$ or in %: the toggle, then the amount in the chosen unit. */
export function DiscountInput<T extends FieldValues>({ control, modeName, amountName, label }: DiscountInputProps<T>) {
  const mode = useController({ control, name: modeName });
  const amount = useController({ control, name: amountName });
  const percent = (mode.field.value as DiscountMode) === 'percent';
  const value = amount.field.value as number | '';
  return (
    <div className="comanda-discount">
      <ToggleGroup
        label={`${label} em`}
        options={DISCOUNT_MODES}
        value={mode.field.value as DiscountMode}
        onChange={(next) => {
          mode.field.onChange(next);
          amount.field.onChange('');
        }}
      />
      {percent ? (
        <NumberField
          label={`${label} (%)`}
          value={value}
          onChange={amount.field.onChange}
          minValue={0}
          maxValue={100}
          error={amount.fieldState.error?.message}
        />
      ) : (
        <MoneyField
          label={`${label} (R$)`}
          value={value === '' ? 0 : value}
          onChange={amount.field.onChange}
          error={amount.fieldState.error?.message}
        />
      )}
    </div>
  );
}
