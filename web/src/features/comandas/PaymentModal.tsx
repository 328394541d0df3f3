import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Form, FormButtons } from '@/components/form/Form';
import { Modal } from '@/components/Modal';
import { MoneyField } from '@/components/MoneyField';
import { NumberField } from '@/components/NumberField';
import { TextField } from '@/components/TextField';
import { ToggleGroup } from '@/components/ToggleGroup';
import { useIdempotencyKey } from '@/lib/idempotency';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { useTakePaymentMutation } from './comandasApi';
import {
  changeOf,
  PAYMENT_METHODS,
  paymentPayload,
  paymentValues,
  pixWrittenOf,
  type DeskMethod,
  type PaymentValues,
  type PixShown,
} from './model';
import { paymentSchema } from './schema';

export const PAYMENT_TAKEN = 'Pagamento registrado.';

interface PaymentModalProps {
  idComanda: number;
  /** What may still be paid (what is left less what waits in Pix charges): the value starts there. */
  due: number;
  method: DeskMethod;
  onClose: () => void;
  /** A Pix charge was made: the page shows its QR code and waits for the client. */
  onPix: (charge: PixShown) => void;
}

/** One payment: the method's details, the value (what is due), and the change of cash. */
export function PaymentModal({ idComanda, due, method, onClose, onPix }: PaymentModalProps) {
  const [takePayment] = useTakePaymentMutation();
  const withKey = useIdempotencyKey();
  // The change the server answered, shown until the desk has handed it over.
  const [change, setChange] = useState<number | null>(null);
  const form = useForm<PaymentValues>({ resolver: yupResolver(paymentSchema(due)), defaultValues: paymentValues(method, due) });
  const { register, control, watch, setValue, formState } = form;
  const { errors, isSubmitting } = formState;
  const chosen = watch('method');
  const preview = chosen === 'cash' ? changeOf(watch('value'), watch('cashReceived')) : null;

  const save = async (values: PaymentValues) => {
    const body = paymentPayload(values);
    const answer = await withKey((idempotencyKey) => takePayment({ id: idComanda, body, idempotencyKey }).unwrap(), JSON.stringify(body));
    // Pix: a charge at the provider, not paid until the client pays it.
    const pix = pixWrittenOf(answer);
    if (pix) {
      onPix({ ...pix, Value: values.value });
      return;
    }
    notifySuccess(PAYMENT_TAKEN);
    if (answer.Change) setChange(answer.Change);
    else onClose();
  };

  if (change !== null) {
    return (
      <Modal open title="Troco" onClose={onClose} size="small">
        <p className="comanda-change" role="status">
          Troco: <strong>{formatBRL(change)}</strong>
        </p>
        <FormButtons>
          <button type="button" className="button button-primary comanda-touch" onClick={onClose}>
            Concluir
          </button>
        </FormButtons>
      </Modal>
    );
  }

  return (
    <Modal open title="Receber pagamento" onClose={onClose} size="small">
      <Form form={form} onSubmit={save} aria-label="Pagamento" className="comanda-form">
        <div>
          <ToggleGroup
            label="Forma de pagamento"
            options={PAYMENT_METHODS}
            value={chosen}
            onChange={(next) => setValue('method', next, { shouldValidate: formState.isSubmitted })}
          />
          {errors.method?.message && (
            <p className="field-error" role="alert">
              {errors.method.message}
            </p>
          )}
        </div>
        <Controller
          control={control}
          name="value"
          render={({ field, fieldState }) => (
            <MoneyField label="Valor" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        {chosen === 'cash' && (
          <>
            <Controller
              control={control}
              name="cashReceived"
              render={({ field, fieldState }) => (
                <MoneyField label="Valor recebido" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
              )}
            />
            {preview !== null && (
              <p className="comanda-change-preview" aria-live="polite">
                Troco: <strong>{formatBRL(preview)}</strong>
              </p>
            )}
          </>
        )}
        {chosen === 'credit' && (
          <Controller
            control={control}
            name="installments"
            render={({ field, fieldState }) => (
              <NumberField
                label="Parcelas"
                value={field.value}
                onChange={field.onChange}
                minValue={0}
                maxValue={24}
                error={fieldState.error?.message}
              />
            )}
          />
        )}
        {chosen === 'debit' && (
          <>
            <TextField label="Bandeira" autoComplete="off" maxLength={40} error={errors.brand?.message} {...register('brand')} />
            <TextField
              label="Código de autorização"
              autoComplete="off"
              maxLength={40}
              error={errors.authorizationCode?.message}
              {...register('authorizationCode')}
            />
            <TextField label="NSU" autoComplete="off" inputMode="numeric" maxLength={40} error={errors.nsu?.message} {...register('nsu')} />
          </>
        )}
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Registrar pagamento
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
