import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { serverMessage, TIMEOUT_MESSAGE } from '@/api/errors';
import { Icon } from '@/components/Icon';
import { DataTable, LIST_PAGE_SIZE, type Column } from '@/components/list/ListPage';
import { Modal } from '@/components/Modal';
import { Paginator } from '@/components/Paginator';
import { ReadOnlyField } from '@/components/form/fields';
import { TextField } from '@/components/TextField';
import { formatCpf, formatPhone } from '@/lib/masks';
import { notifyError, notifySuccess } from '@/lib/notify';
import { whatsAppLink } from '@/lib/whatsapp';
import { useCreateCheckoutTokenMutation, useGetPlanClientsQuery, useSendCheckoutEmailMutation } from './plansApi';
import type { PlanClient, PlanListItem } from './types';

export const TOKEN_WAIT = 'Aguarde, estamos gerando o token...';
export const TOKEN_FAILED = 'Ocorreu um erro ao gerar o link do usuario.';
export const EMAIL_FAILED = 'Ocorreu um erro ao enviar o link para o usuário.';
export const EMAIL_SENT = 'Email enviado com sucesso.';
export const LINK_COPIED = 'Link copiado !!';
export const NEW_CLIENT_PATH = '/dashboard/client/new';
const SEARCH_DEBOUNCE_MS = 300;

/** The welcome message the WhatsApp chat opens with. */
export function welcomeMessage(clientName: string, planName: string, link: string): string {
  const firstName = clientName.trim().split(/\s+/)[0] ?? '';
  return (
    `Olá, ${firstName}! Seja bem-vindo(a) ao clube de assinatura da Navalha. ` +
    `Para assinar o plano ${planName}, acesse o link: ${link}`
  );
}

/**
 * One toast per failed link call: the server's message when it sent one (e.g. a client
 * without a CPF), the timeout's, else the spec's own text. A 401 has signed the user out.
 */
export function linkFailureMessage(failure: unknown, fallback: string): string | null {
  const error = failure as FetchBaseQueryError;
  if (error?.status === 401) return null;
  if (error?.status === 'TIMEOUT_ERROR') return TIMEOUT_MESSAGE;
  return (error && 'status' in error && serverMessage(error)) || fallback;
}

/** Copies text; the clipboard API needs a secure context, the old way works anywhere. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission or focus): try the old way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

type Action = 'email' | 'copy' | 'whatsapp';

/** 'Enviar link': find an active client and send them the plan's checkout link. */
export function SendLinkModal({ plan, onClose }: { plan: PlanListItem; onClose: () => void }) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<{ id: number; action: Action } | null>(null);
  // Shown when the browser refused to copy, so the link can be copied by hand.
  const [manualLink, setManualLink] = useState<string | null>(null);
  const { data, isFetching } = useGetPlanClientsQuery({ page, pageSize: LIST_PAGE_SIZE, search });
  const [createToken] = useCreateCheckoutTokenMutation();
  const [sendEmail] = useSendCheckoutEmailMutation();

  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(text);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const body = (client: PlanClient) => ({ userId: client.IdUser, planId: plan.IdSubscriptionDetail });

  /** Runs one action with the wait toast up while the token is made. */
  const run = async (client: PlanClient, action: Action, work: () => Promise<void>) => {
    if (busy) return;
    setBusy({ id: client.IdUser, action });
    const waiting = toast.info(TOKEN_WAIT);
    try {
      await work();
    } finally {
      toast.dismiss(waiting);
      setBusy(null);
    }
  };

  const link = async (client: PlanClient): Promise<string | null> => {
    try {
      return (await createToken(body(client)).unwrap()).Link;
    } catch (failure) {
      const message = linkFailureMessage(failure, TOKEN_FAILED);
      if (message) notifyError(message);
      return null;
    }
  };

  const email = (client: PlanClient) =>
    run(client, 'email', async () => {
      try {
        await sendEmail(body(client)).unwrap();
        notifySuccess(EMAIL_SENT);
      } catch (failure) {
        const message = linkFailureMessage(failure, EMAIL_FAILED);
        if (message) notifyError(message);
      }
    });

  const copy = (client: PlanClient) =>
    run(client, 'copy', async () => {
      const url = await link(client);
      if (!url) return;
      if (await copyText(url)) {
        setManualLink(null);
        notifySuccess(LINK_COPIED);
      } else {
        setManualLink(url);
      }
    });

  const whatsApp = (client: PlanClient) =>
    run(client, 'whatsapp', async () => {
      const url = await link(client);
      if (url) window.open(whatsAppLink(client.Phone, welcomeMessage(client.Name, plan.PlanName, url)), '_blank', 'noopener,noreferrer');
    });

  const columns: Column<PlanClient>[] = [
    { header: 'Nome', cell: (client) => <span className="plan-client-name">{client.Name}</span> },
    { header: 'CPF', cell: (client) => (client.Cpf ? formatCpf(client.Cpf) : '-') },
    { header: 'Telefone', cell: (client) => <span className="plan-nowrap">{client.Phone ? formatPhone(client.Phone) : '-'}</span> },
    {
      header: 'Enviar',
      className: 'table-actions',
      cell: (client) => {
        const disabled = busy !== null;
        return (
          <span className="plan-actions">
            <button
              type="button"
              className="icon-button"
              disabled={disabled || !client.Email}
              aria-label={`Enviar por e-mail para ${client.Name}`}
              title="Enviar por e-mail"
              onClick={() => void email(client)}
            >
              <Icon name="mail" />
            </button>
            <button
              type="button"
              className="icon-button"
              disabled={disabled}
              aria-label={`Copiar link de ${client.Name}`}
              title="Copiar link"
              onClick={() => void copy(client)}
            >
              <CopyIcon />
            </button>
            <button
              type="button"
              className="icon-button plan-whatsapp"
              disabled={disabled || !client.Phone}
              aria-label={`Enviar por WhatsApp para ${client.Name}`}
              title="Enviar por WhatsApp"
              onClick={() => void whatsApp(client)}
            >
              <Icon name="whatsapp" />
            </button>
          </span>
        );
      },
    },
  ];

  return (
    <Modal open title="Enviar link do plano" onClose={onClose} className="plan-link-modal">
      <p className="plan-link-plan">
        Plano: <strong>{plan.PlanName}</strong>
      </p>
      <div className="plan-link-search">
        <TextField
          label="Busque pelo nome, CPF ou telefone"
          variant="search"
          autoComplete="off"
          className="plan-search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            // Enter searches at once instead of waiting for the pause.
            if (event.key === 'Enter') {
              event.preventDefault();
              setSearch(text);
              setPage(1);
            }
          }}
        />
        <a className="button button-secondary" href={NEW_CLIENT_PATH} target="_blank" rel="noopener noreferrer">
          Novo cliente
        </a>
      </div>
      {manualLink && <ReadOnlyField label="Link de assinatura (copie manualmente)" value={manualLink} />}
      <DataTable
        label="Clientes"
        columns={columns}
        rows={data?.content}
        rowKey={(client) => client.IdUser}
        emptyText="Nenhum usuário encontrado"
        loading={isFetching}
      />
      {!!data?.total && <Paginator page={page} pageSize={LIST_PAGE_SIZE} total={data.total} onPage={setPage} />}
    </Modal>
  );
}

/** Material 'content_copy' (the shared icon set has none). */
function CopyIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
      <path d="M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12V1zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2zm0 16H8V7h11v14z" />
    </svg>
  );
}
