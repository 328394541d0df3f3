import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { DialogButtons, Form } from '@/components/form/Form';
import { CheckboxField } from '@/components/form/fields';
import { Modal } from '@/components/Modal';
import { MoneyField } from '@/components/MoneyField';
import { TextField } from '@/components/TextField';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { useCloseCaixaMutation, useMoveCashMutation, useReopenCaixaMutation } from './caixaApi';
import {
  closePayload,
  closeSchema,
  movementSchema,
  MOVEMENT_LABELS,
  reasonSchema,
  type CloseValues,
  type MovementValues,
  type ReasonValues,
} from './model';
import type { CaixaWritten, MovementKind } from './types';

// The caixa's dialogs: a sangria or reforço, the close with the cash counted, and the
// reopen (ADMIN). Each is the one form pattern: the server's 422 lands on its fields.

export const MOVEMENT_SAVED: Record<MovementKind, string> = {
  sangria: 'Sangria registrada com sucesso!',
  reforco: 'Reforço registrado com sucesso!',
};
export const CLOSED_MESSAGE = 'Caixa fechado com sucesso!';
export const REOPENED_MESSAGE = 'Caixa reaberto com sucesso!';

interface MovementDialogProps {
  idCaixa: number;
  kind: MovementKind;
  onClose: () => void;
}

/** 'Sangria' (cash out) or 'Reforço' (cash in): the value and the reason. */
export function MovementDialog({ idCaixa, kind, onClose }: MovementDialogProps) {
  const form = useForm<MovementValues>({ resolver: yupResolver(movementSchema), defaultValues: { value: 0, reason: '' } });
  const { register, control, formState } = form;
  const [moveCash] = useMoveCashMutation();
  const withKey = useIdempotencyKey();
  const title = MOVEMENT_LABELS[kind];

  const submit = async (values: MovementValues) => {
    const payload = { kind, value: values.value, reason: values.reason.trim() };
    await withKey((idempotencyKey) => moveCash({ id: idCaixa, payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
    notifySuccess(MOVEMENT_SAVED[kind]);
    onClose();
  };

  return (
    <Modal open title={title} onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label={title} className="caixa-dialog-form">
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

interface CloseDialogProps {
  idCaixa: number;
  onClose: () => void;
  /** The caixa as closed: expected, counted and the difference. */
  onClosed: (written: CaixaWritten) => void;
}

/** 'Fechar caixa': the cash counted in the drawer; the server writes expected and difference. */
export function CloseDialog({ idCaixa, onClose, onClosed }: CloseDialogProps) {
  const form = useForm<CloseValues>({
    resolver: yupResolver(closeSchema),
    defaultValues: { countedCash: 0, withCardMachine: false, machineCredit: 0, machineDebit: 0 },
  });
  const [closeCaixa] = useCloseCaixaMutation();
  const withKey = useIdempotencyKey();
  const withCardMachine = form.watch('withCardMachine');

  const submit = async (values: CloseValues) => {
    const payload = closePayload(values);
    const written = await withKey(
      (idempotencyKey) => closeCaixa({ id: idCaixa, payload, idempotencyKey }).unwrap(),
      JSON.stringify(payload),
    );
    notifySuccess(CLOSED_MESSAGE);
    onClosed(written);
  };

  return (
    <Modal open title="Fechar caixa" onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label="Fechar caixa" className="caixa-dialog-form">
        <p className="muted caixa-dialog-text">
          Conte o dinheiro da gaveta e informe o total. Se quiser conferir os cartões, informe também os totais que a maquininha imprime.
        </p>
        <Controller
          control={form.control}
          name="countedCash"
          render={({ field, fieldState }) => (
            <MoneyField label="Dinheiro contado" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <CheckboxField label="Informar os totais da maquininha de cartão" {...form.register('withCardMachine')} />
        {withCardMachine && (
          <>
            {(['machineCredit', 'machineDebit'] as const).map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field, fieldState }) => (
                  <MoneyField
                    label={name === 'machineCredit' ? 'Maquininha: crédito' : 'Maquininha: débito'}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
          </>
        )}
        <DialogButtons onCancel={onClose} submitting={form.formState.isSubmitting} label="Fechar caixa" />
      </Form>
    </Modal>
  );
}

interface ReopenDialogProps {
  idCaixa: number;
  onClose: () => void;
}

/** 'Reabrir caixa' (ADMIN): the reason, which the caixa's corrections list. */
export function ReopenDialog({ idCaixa, onClose }: ReopenDialogProps) {
  const form = useForm<ReasonValues>({ resolver: yupResolver(reasonSchema), defaultValues: { reason: '' } });
  const [reopenCaixa] = useReopenCaixaMutation();
  const withKey = useIdempotencyKey();

  const submit = async (values: ReasonValues) => {
    const payload = { reason: values.reason.trim() };
    await withKey((idempotencyKey) => reopenCaixa({ id: idCaixa, payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
    notifySuccess(REOPENED_MESSAGE);
    onClose();
  };

  return (
    <Modal open title="Reabrir caixa" onClose={onClose} size="small">
      <Form form={form} onSubmit={submit} aria-label="Reabrir caixa" className="caixa-dialog-form">
        <TextField
          label="Motivo"
          autoComplete="off"
          maxLength={500}
          error={form.formState.errors.reason?.message}
          {...form.register('reason')}
        />
        <DialogButtons onCancel={onClose} submitting={form.formState.isSubmitting} label="Reabrir caixa" />
      </Form>
    </Modal>
  );
}
