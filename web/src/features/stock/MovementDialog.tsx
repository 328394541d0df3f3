import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import type { CompanyDto } from '@/api/wire';
import { DialogButtons, Form } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { MoneyField } from '@/components/MoneyField';
import { NumberField } from '@/components/NumberField';
import { TextField } from '@/components/TextField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import {
  emptyMovement,
  MOVEMENT_QUANTITY_MAX,
  MOVEMENT_SAVED,
  MOVEMENT_TEXT_MAX,
  movementPayload,
  movementSchema,
  movementTitle,
  quantityLabel,
  quantityText,
  type MovementValues,
} from './model';
import { useRecordMovementMutation } from './stockApi';
import type { MovementKind, StockRow } from './types';

// The one dialog of the stock's movements: an entry, an internal use, a count (adjustment) or
// a transfer to another unit. The one form pattern: the server's 422 lands on its fields.

interface MovementDialogProps {
  kind: MovementKind;
  product: StockRow;
  /** The unit the stock is of. */
  idCompany: number;
  unitName: string;
  /** The user's units: a transfer goes to one of the others. */
  units: readonly CompanyDto[];
  onClose: () => void;
}

export function MovementDialog({ kind, product, idCompany, unitName, units, onClose }: MovementDialogProps) {
  const form = useForm<MovementValues>({
    resolver: yupResolver(movementSchema),
    defaultValues: emptyMovement(kind, idCompany, product.AverageCost),
  });
  const { register, control, formState } = form;
  const { errors } = formState;
  const [recordMovement] = useRecordMovementMutation();
  const withKey = useIdempotencyKey();
  const title = movementTitle(kind);
  // The kind and the unit are not fields: what the server says of them shows at the end.
  const fixedError = errors.kind?.message ?? errors.idCompany?.message;

  const submit = async (values: MovementValues) => {
    const payload = movementPayload(values);
    await withKey(
      (idempotencyKey) => recordMovement({ idProduct: product.IdProduct, payload, idempotencyKey }).unwrap(),
      JSON.stringify(payload),
    );
    notifySuccess(MOVEMENT_SAVED);
    onClose();
  };

  return (
    <Modal open title={title} onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label={title} className="stock-dialog-form">
        <p className="muted stock-dialog-text">
          {product.Name}
          {product.Brand ? ` (${product.Brand})` : ''} · {unitName} · em estoque: {quantityText(product.Quantity, product.Unit)}
        </p>
        {kind === 'ajuste' && (
          <p className="muted stock-dialog-text">Informe quanto há de fato na unidade: a diferença entra como ajuste.</p>
        )}
        {/* Whole quantities, as the units of measure count them (un, ml, g). */}
        <Controller
          control={control}
          name="quantity"
          render={({ field, fieldState }) => (
            <NumberField
              label={quantityLabel(kind)}
              value={field.value}
              onChange={field.onChange}
              minValue={0}
              maxValue={MOVEMENT_QUANTITY_MAX}
              error={fieldState.error?.message}
            />
          )}
        />
        {kind === 'entrada' && (
          <>
            <Controller
              control={control}
              name="unitCost"
              render={({ field, fieldState }) => (
                <MoneyField label="Custo unitário" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
              )}
            />
            <TextField label="Fornecedor" autoComplete="off" maxLength={MOVEMENT_TEXT_MAX} error={errors.supplier?.message} {...register('supplier')} />
          </>
        )}
        {(kind === 'uso_interno' || kind === 'ajuste') && (
          <TextField label="Motivo" autoComplete="off" maxLength={MOVEMENT_TEXT_MAX} error={errors.reason?.message} {...register('reason')} />
        )}
        {kind === 'transferencia' && (
          <SelectField
            label="Unidade de destino"
            options={[
              { value: '', label: 'Selecione' },
              ...units.filter((unit) => unit.IdCompany !== idCompany).map((unit) => ({ value: unit.IdCompany, label: unit.Name })),
            ]}
            error={errors.idCompanyTo?.message}
            {...register('idCompanyTo')}
          />
        )}
        {fixedError && (
          <p className="field-error" role="alert">
            {fixedError}
          </p>
        )}
        <DialogButtons onCancel={onClose} submitting={formState.isSubmitting} label="Salvar" />
      </Form>
    </Modal>
  );
}
