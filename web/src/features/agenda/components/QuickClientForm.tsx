import { yupResolver } from '@hookform/resolvers/yup';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { DialogButtons, Form } from '@/components/form/Form';
import { CheckboxField } from '@/components/form/fields';
import { TextField } from '@/components/TextField';
import { useRegisterQuickClientMutation } from '@/features/clients/clientsApi';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import {
  QUICK_CLIENT_CREATED,
  quickClientItem,
  quickClientPayload,
  quickClientPrefill,
  quickClientSchema,
  type QuickClientValues,
} from '../model/quickClient';
import type { ClientItem } from '../model/types';

interface QuickClientFormProps {
  /** What was typed in the search, which fills the name or the mobile. */
  search: string;
  /** The registered client, as the search would list it. */
  onCreated: (client: ClientItem) => void;
  onCancel: () => void;
}

/**
 * 'Novo cliente' in the client search (issue 45): a name, a mobile, the CPF if the client says
 * it and the WhatsApp box; the server's refusals land on their fields.
 */
export function QuickClientForm({ search, onCreated, onCancel }: QuickClientFormProps) {
  const titleId = useId();
  const form = useForm<QuickClientValues>({
    resolver: yupResolver(quickClientSchema),
    defaultValues: quickClientPrefill(search),
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const [registerClient] = useRegisterQuickClientMutation();
  // A retried request is not a second client.
  const withKey = useIdempotencyKey();

  const save = async (values: QuickClientValues) => {
    const payload = quickClientPayload(values);
    const { IdUser } = await withKey((idempotencyKey) => registerClient({ payload, idempotencyKey }).unwrap());
    notifySuccess(QUICK_CLIENT_CREATED);
    onCreated(quickClientItem(IdUser, payload));
  };

  return (
    <section className="quick-client" aria-labelledby={titleId}>
      <h3 id={titleId} className="quick-client-title">
        Novo cliente
      </h3>
      <Form form={form} onSubmit={save} aria-label="Novo cliente" className="quick-client-form">
        <div className="quick-client-fields">
          <TextField
            label="Nome completo"
            className="quick-client-name"
            autoComplete="off"
            autoFocus
            error={errors.name?.message}
            {...register('name')}
          />
          <TextField label="Celular" mask="phone" type="tel" error={errors.phone?.message} {...register('phone')} />
          <TextField label="CPF (opcional)" mask="cpf" error={errors.cpf?.message} {...register('cpf')} />
          <CheckboxField label="Este número é WhatsApp" {...register('whatsApp')} />
        </div>
        <DialogButtons onCancel={onCancel} submitting={isSubmitting} label="Cadastrar cliente" />
      </Form>
    </section>
  );
}
