import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { DialogButtons, Form } from '@/components/form/Form';
import { SelectField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { MoneyField } from '@/components/MoneyField';
import { TextField } from '@/components/TextField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { formatBRL } from '@/lib/money';
import { notifySuccess } from '@/lib/notify';
import { useClosePeriodMutation, useRecordEntryMutation } from './commissionsApi';
import {
  closePeriodSchema,
  ENTRY_KIND_LABELS,
  ENTRY_KINDS,
  entrySchema,
  PAYOUT_METHOD_LABELS,
  PAYOUT_METHODS,
  type ClosePeriodValues,
  type EntryValues,
} from './model';

// The commission dialogs (ADMIN): a vale or bonus, and the close of a period with its payout.
// Each is the one form pattern: the server's 422 lands on its fields.

export const ENTRY_SAVED = 'Lançamento registrado com sucesso!';
export const PERIOD_CLOSED = 'Período fechado com sucesso!';
export const NEW_ENTRY = 'Novo vale ou bônus';
export const CLOSE_PERIOD = 'Fechar período';

interface EntryDialogProps {
  idProfessional: number;
  name: string;
  onClose: () => void;
}

/** 'Novo vale ou bônus': the kind, the value and the reason; it enters today's statement. */
export function EntryDialog({ idProfessional, name, onClose }: EntryDialogProps) {
  const form = useForm<EntryValues>({
    resolver: yupResolver(entrySchema),
    defaultValues: { kind: 'vale', value: 0, reason: '' },
  });
  const { register, control, formState } = form;
  const [recordEntry] = useRecordEntryMutation();
  const withKey = useIdempotencyKey();

  const submit = async (values: EntryValues) => {
    const payload = { idProfessional, kind: values.kind, value: values.value, reason: values.reason.trim() };
    await withKey((idempotencyKey) => recordEntry({ payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
    notifySuccess(ENTRY_SAVED);
    onClose();
  };

  return (
    <Modal open title={NEW_ENTRY} onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label={NEW_ENTRY} className="commission-dialog-form">
        <p className="muted commission-dialog-text">
          Para {name}, com a data de hoje: um vale desconta do líquido a pagar, um bônus soma.
        </p>
        <SelectField
          label="Tipo"
          options={ENTRY_KINDS.map((kind) => ({ value: kind, label: ENTRY_KIND_LABELS[kind] }))}
          error={formState.errors.kind?.message}
          {...register('kind')}
        />
        <Controller
          control={control}
          name="value"
          render={({ field, fieldState }) => (
            <MoneyField label="Valor" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <TextField label="Motivo" autoComplete="off" maxLength={500} error={formState.errors.reason?.message} {...register('reason')} />
        <DialogButtons onCancel={onClose} submitting={formState.isSubmitting} label="Salvar" />
      </Form>
    </Modal>
  );
}

interface ClosePeriodDialogProps {
  idProfessional: number;
  name: string;
  /** The period on screen, which the dialog closes unless changed. */
  from: string;
  to: string;
  /** 'Líquido a pagar' of the period on screen. */
  net: number;
  today: string;
  onClose: () => void;
  /** The period as closed: the screen shows it. */
  onClosed: (period: { from: string; to: string }) => void;
}

/** 'Fechar período': the days closed, the day they were paid and how; what it settles never changes. */
export function ClosePeriodDialog({ idProfessional, name, from, to, net, today, onClose, onClosed }: ClosePeriodDialogProps) {
  const form = useForm<ClosePeriodValues>({
    resolver: yupResolver(closePeriodSchema),
    defaultValues: { from, to, paidAt: today, method: '' },
  });
  const { register, formState } = form;
  const [closePeriod] = useClosePeriodMutation();
  const withKey = useIdempotencyKey();
  const [chosenFrom, chosenTo] = form.watch(['from', 'to']);
  const onScreen = chosenFrom === from && chosenTo === to;

  const submit = async (values: ClosePeriodValues) => {
    const payload = { idProfessional, from: values.from, to: values.to, paidAt: values.paidAt, method: values.method };
    await withKey((idempotencyKey) => closePeriod({ payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
    notifySuccess(PERIOD_CLOSED);
    onClosed({ from: values.from, to: values.to });
  };

  return (
    <Modal open title={CLOSE_PERIOD} onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label={CLOSE_PERIOD} className="commission-dialog-form">
        <p className="muted commission-dialog-text">
          Registra o pagamento a {name} dos dias do período. O que ele fecha não muda mais: alterações posteriores nas
          comandas entram como ajustes no período seguinte.
        </p>
        {onScreen && (
          <p className="commission-dialog-net">
            Líquido a pagar: <strong>{formatBRL(net)}</strong>
          </p>
        )}
        <div className="commission-dialog-dates">
          <TextField label="De" type="date" max="9999-12-31" error={formState.errors.from?.message} {...register('from')} />
          <TextField label="Até" type="date" max="9999-12-31" error={formState.errors.to?.message} {...register('to')} />
        </div>
        <TextField
          label="Data do pagamento"
          type="date"
          max="9999-12-31"
          error={formState.errors.paidAt?.message}
          {...register('paidAt')}
        />
        <SelectField
          label="Forma de pagamento"
          options={[
            { value: '', label: 'Selecione' },
            ...PAYOUT_METHODS.map((method) => ({ value: method, label: PAYOUT_METHOD_LABELS[method] })),
          ]}
          error={formState.errors.method?.message}
          {...register('method')}
        />
        <DialogButtons onCancel={onClose} submitting={formState.isSubmitting} label={CLOSE_PERIOD} />
      </Form>
    </Modal>
  );
}
