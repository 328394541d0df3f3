import { yupResolver } from '@hookform/resolvers/yup';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Form, FormButtons } from '@/components/form/Form';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { reasonSchema, type ReasonValues } from './schema';

interface ReasonModalProps {
  title: string;
  /** What the change does, above the reason. */
  children: ReactNode;
  confirmLabel: string;
  /** Sends the reason; a 422 on `reason` lands on the field. */
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

/** Asks the reason of a reopen, a cancel or a refund ('Estorno'), which the history keeps. */
export function ReasonModal({ title, children, confirmLabel, onSubmit, onClose }: ReasonModalProps) {
  const form = useForm<ReasonValues>({ resolver: yupResolver(reasonSchema), defaultValues: { reason: '' } });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  return (
    <Modal open title={title} onClose={onClose} size="small">
      <Form form={form} onSubmit={(values) => onSubmit(values.reason.trim())} aria-label={title} className="comanda-form">
        <div className="dialog-message">{children}</div>
        <TextField label="Motivo" autoComplete="off" maxLength={500} error={errors.reason?.message} {...register('reason')} />
        <FormButtons>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {confirmLabel}
          </button>
        </FormButtons>
      </Form>
    </Modal>
  );
}
