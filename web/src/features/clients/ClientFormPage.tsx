import { yupResolver } from '@hookform/resolvers/yup';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppSelector } from '@/state/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { FormPageFrame, FormPagePending } from '@/components/form/FormPageFrame';
import { CheckboxField, ReadOnlyField, SelectField, STATUS_OPTIONS } from '@/components/form/fields';
import { TextField } from '@/components/TextField';
import { HistoryList } from '@/features/history/HistoryList';
import { ClientVisitsPanel } from './ClientVisits';
import { notifySuccess } from '@/lib/notify';
import { selectRoleType } from '@/state/sessionSlice';
import {
  useCreateClientMutation,
  useGetClientQuery,
  useRemoveSocialLoginsMutation,
  useUpdateClientMutation,
} from './clientsApi';
import { useIdempotencyKey } from '@/lib/idempotency';
import {
  EMPTY_CLIENT,
  clientPayload,
  clientSchema,
  clientValues,
  cpfFieldOf,
  isIncomplete,
  lastAccessLabel,
  loginTypeLabel,
  mayEditClients,
  type ClientFormValues,
} from './schema';
import { LOGIN_PASSWORD, type ClientDetail } from './types';
import { UnconfirmedNotice } from './Unconfirmed';
import './clients.css';

const CLIENTS_PATH = '/dashboard/client';
const FRAME = { listPath: CLIENTS_PATH, className: 'client-form-page' };

export const CREATED_MESSAGE = 'Cliente cadastrado com sucesso!';
export const UPDATED_MESSAGE = 'Informações atualizadas com sucesso!';
export const SOCIAL_REMOVED_MESSAGE = 'Redes sociais removidas com sucesso!';
/** On a record the desk added with a name and a mobile (issue 45). */
export const INCOMPLETE_NOTICE = 'Cadastro incompleto: informe e-mail e CPF quando o cliente puder.';

/** The status select: a placeholder, then Ativo / Inativo (spec 02 §5 'Escolha um Status'). */
const STATUS_SELECT_OPTIONS = [{ value: '', label: 'Selecione' }, ...STATUS_OPTIONS];

/** /dashboard/client/new and /dashboard/client/{idClient} (edit when the id is numeric). */
export default function ClientFormPage() {
  const { idClient = 'new' } = useParams();
  const id = /^\d+$/.test(idClient) ? Number(idClient) : null;
  const { data: client, isError } = useGetClientQuery(id ?? 0, { skip: id === null });

  if (id !== null && !client) {
    return <FormPagePending {...FRAME} title="Cliente" isError={isError} />;
  }
  // Keyed by id so a new client's form never keeps another's values.
  return <ClientForm key={id ?? 'new'} client={client ?? null} />;
}

function ClientForm({ client }: { client: ClientDetail | null }) {
  const navigate = useNavigate();
  const role = useAppSelector(selectRoleType);
  const canEdit = mayEditClients(role);
  const isNew = client === null;
  // Registering: required; editing a record without a CPF: optional; with one: fixed.
  const cpfField = cpfFieldOf(client);
  const form = useForm<ClientFormValues>({
    resolver: yupResolver(clientSchema(cpfField)),
    defaultValues: client ? clientValues(client) : EMPTY_CLIENT,
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const [createClient] = useCreateClientMutation();
  const [updateClient] = useUpdateClientMutation();
  const [removeSocialLogins, { isLoading: removing }] = useRemoveSocialLoginsMutation();
  const [confirmOpen, setConfirmOpen] = useState(false);
  // A retried request is not a second client.
  const withKey = useIdempotencyKey();

  const save = async (values: ClientFormValues) => {
    const payload = clientPayload(values, cpfField);
    if (client) {
      await updateClient({ id: client.IdUser, payload }).unwrap();
      notifySuccess(UPDATED_MESSAGE);
    } else {
      await withKey((idempotencyKey) => createClient({ payload, idempotencyKey }).unwrap());
      notifySuccess(CREATED_MESSAGE);
    }
    navigate(CLIENTS_PATH);
  };

  const removeSocial = async () => {
    if (!client) return;
    try {
      await removeSocialLogins(client.IdUser).unwrap();
      notifySuccess(SOCIAL_REMOVED_MESSAGE);
    } catch {
      // The base query showed the server's message.
    } finally {
      setConfirmOpen(false);
    }
  };

  const loginType = client?.LoginType ?? LOGIN_PASSWORD;
  const showRemoveSocial = !!client && canEdit && loginType.toUpperCase() !== LOGIN_PASSWORD;

  return (
    <FormPageFrame {...FRAME} title={isNew ? 'Novo cliente' : 'Cliente'}>
      {client?.Unconfirmed && <UnconfirmedNotice idUser={client.IdUser} canConfirm={canEdit} />}
      {client && isIncomplete(client) && (
        <p className="client-incomplete" role="status">
          {INCOMPLETE_NOTICE}
        </p>
      )}
      <Form form={form} onSubmit={save} aria-label="Dados do cliente">
        {/* Roles that may not save see the client read-only (spec 02 §6). */}
        <fieldset className="client-fields" disabled={!canEdit}>
          <FormSection title="Dados do cliente">
            <TextField
              label="Nome completo"
              className="field-wide"
              autoComplete="off"
              error={errors.name?.message}
              {...register('name')}
            />
            <TextField
              label="CPF"
              mask="cpf"
              disabled={cpfField === 'locked'}
              error={errors.cpf?.message}
              {...register('cpf')}
            />
            <TextField label="E-mail" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
            <TextField label="Celular" mask="phone" type="tel" error={errors.phone?.message} {...register('phone')} />
            <CheckboxField label="WhatsApp" {...register('whatsApp')} />
            <TextField
              label="Data de nascimento"
              type="date"
              max="9999-12-31"
              error={errors.birthDate?.message}
              {...register('birthDate')}
            />
            <SelectField label="Status" options={STATUS_SELECT_OPTIONS} error={errors.status?.message} {...register('status')} />
          </FormSection>
          {client && (
            <FormSection title="Acesso ao aplicativo">
              <ReadOnlyField label="Último acesso ao app" value={lastAccessLabel(client.LastAccess)} />
              <ReadOnlyField label="Tipo de login" value={loginTypeLabel(loginType)} />
              {client.RecoveryCode && <ReadOnlyField label="Código de recuperação" value={client.RecoveryCode} />}
              {showRemoveSocial && (
                <div className="client-social">
                  <button type="button" className="button button-danger" onClick={() => setConfirmOpen(true)}>
                    Remover login social
                  </button>
                </div>
              )}
            </FormSection>
          )}
        </fieldset>
        <FormButtons>
          <Link className="button button-secondary" to={CLIENTS_PATH}>
            Cancelar
          </Link>
          {canEdit && (
            <button type="submit" className="button button-primary" disabled={isSubmitting}>
              Salvar
            </button>
          )}
        </FormButtons>
      </Form>
      <ConfirmDialog
        open={confirmOpen}
        title="Atencão!"
        confirmLabel="Remover"
        cancelLabel="Fechar"
        onConfirm={() => void (removing || removeSocial())}
        onCancel={() => setConfirmOpen(false)}
      >
        <p>Deseja realmente remover todos os logins com redes sociais?</p>
        <p className="client-social-note">Depois disso, o cliente deverá entrar com e-mail e senha.</p>
      </ConfirmDialog>
      {/* Issue 17: the client's visits, spending and subscription. */}
      {client && <ClientVisitsPanel client={client} />}
      {/* Issue 14: who changed what, for ADMIN (the only role the audit answers). */}
      {client && role === 'ADMIN' && (
        <section className="history-panel" aria-labelledby="client-history-title">
          <h2 id="client-history-title" className="section-title">
            Histórico
          </h2>
          <HistoryList target={{ subject: 'client', id: client.IdUser }} label="Histórico do cliente" />
        </section>
      )}
    </FormPageFrame>
  );
}
